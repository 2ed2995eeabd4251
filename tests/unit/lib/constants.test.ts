import { describe, expect, it } from 'vitest'
import {
  CHART_BORDER_WIDTH,
  CHART_COLOR_NAMES,
  CHART_COLORS,
  FAILED_FETCH_MESSAGES,
  MAX_COLLEAGUES,
  NON_IDEMPOTENT_METHODS,
  PASSWORD_MIN_FLOOR,
  RETRY_STATUSES,
  TIMINGS,
} from '#app/config/constants'

// Parses '#rrggbb' and 'rgba(r, g, b, a)' into channels, so the hues can be checked, not just the strings.
function rgba(color: string): [number, number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color)
  if (hex) return [parseInt(hex[1], 16), parseInt(hex[2], 16), parseInt(hex[3], 16), 1]
  const fn = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(color)
  if (fn) return [Number(fn[1]), Number(fn[2]), Number(fn[3]), Number(fn[4])]
  throw new Error(`unparsed colour ${color}`)
}

function hue([r, g, b]: [number, number, number, number]): number {
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  const d = max - min
  if (d === 0) return NaN
  let h: number
  if (max === r) h = ((g - b) / d) % 6
  else if (max === g) h = (b - r) / d + 2
  else h = (r - g) / d + 4
  return (h * 60 + 360) % 360
}

describe('business constants (spec §9)', () => {
  it('caps colleagues at 8', () => {
    expect(MAX_COLLEAGUES).toBe(8)
  })

  it('names the ten chart colours in the spec order', () => {
    expect(CHART_COLOR_NAMES).toEqual([
      'black',
      'red',
      'orange',
      'yellow',
      'magenta',
      'green',
      'cyan',
      'blue',
      'violet',
      'transparent white',
    ])
    expect(CHART_COLORS).toHaveLength(10)
    expect(new Set(CHART_COLORS).size).toBe(10)
  })

  it('gives each chart colour a value of the named hue', () => {
    const hues: Record<string, [number, number]> = {
      red: [345, 15],
      orange: [15, 40],
      yellow: [40, 65],
      magenta: [285, 330],
      green: [90, 160],
      cyan: [175, 200],
      blue: [200, 240],
      violet: [245, 285],
    }
    CHART_COLOR_NAMES.forEach((name, i) => {
      const channels = rgba(CHART_COLORS[i])
      if (name === 'black') return expect(channels).toEqual([0, 0, 0, 1])
      if (name === 'transparent white') return expect(channels).toEqual([255, 255, 255, 0])
      const [from, to] = hues[name]
      const h = hue(channels)
      const inRange = from < to ? h >= from && h <= to : h >= from || h <= to
      expect(inRange, `${name} ${CHART_COLORS[i]} has hue ${h}`).toBe(true)
      expect(channels[3]).toBe(1)
    })
  })

  it('draws chart borders 2 px wide', () => {
    expect(CHART_BORDER_WIDTH).toBe(2)
  })

  it('holds the timings in milliseconds', () => {
    expect(TIMINGS).toEqual({
      tokenRefreshLeadMs: 300_000,
      refreshRetryInitialMs: 30_000,
      refreshRetryMaxMs: 960_000,
      signInTimeoutDesktopMs: 30_000,
      signInTimeoutMobileMs: 60_000,
      reloadGuardMs: 10_000,
    })
  })

  it('lists the retry statuses, the non-idempotent methods and the failed-fetch messages', () => {
    expect(RETRY_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504])
    expect(NON_IDEMPOTENT_METHODS).toEqual(['POST', 'PUT', 'PATCH', 'DELETE'])
    expect(FAILED_FETCH_MESSAGES).toEqual([
      'Failed to fetch',
      'Load failed',
      'NetworkError when attempting to fetch resource.',
    ])
  })

  it('never lets a password policy go below 6 characters', () => {
    expect(PASSWORD_MIN_FLOOR).toBe(6)
  })
})
