import type { AnsweringView } from '#app/modules/assignment/answering-view.server'
import type { MissingSection } from '#app/modules/assignment/save-answers.server'

export type Progress = { sections: AnsweringView['sections']; totals: AnsweringView['totals'] }

export type AnswerActionData =
  | { kind: 'saved'; savedAt: string; progress?: Progress }
  | {
      kind: 'refused'
      reason: string
      message: string
      section?: number
      fieldErrors?: Record<string, string[]>
      values?: Record<string, string[]>
      missing?: MissingSection[]
    }
  | { kind: 'network'; message: string }

export type SaveStatus =
  | { state: 'idle' }
  | { state: 'dirty' }
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'retrying'; inSeconds: number }
  | { state: 'invalid' }
  | { state: 'refused'; message: string }
