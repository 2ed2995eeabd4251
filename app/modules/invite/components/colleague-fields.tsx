import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Field, SelectField } from '#app/components/forms'
import { RELATIONSHIP_LABELS, RELATIONSHIPS } from '#app/modules/invite/schemas'

/** The relationships a colleague can have to the person they answer about, as a select's options. */
export const RELATIONSHIP_OPTIONS = RELATIONSHIPS.map((r) => ({ value: r, label: RELATIONSHIP_LABELS[r] }))

/** The same options in the page's language (the route loads `home`, which holds the labels). */
export function useRelationshipOptions() {
  const { t } = useTranslation('home')
  return RELATIONSHIPS.map((r) => ({ value: r, label: t(`relationship.${r}`) }))
}

type Meta<Value, Schema extends Record<string, unknown>> = FieldMetadata<Value, Schema, string[]>

/**
 * Who a colleague is: name, e-mail address and relationship, the same three fields wherever one is
 * named — an invitation (invite-form.tsx) and a nomination (nomination-page.tsx).
 */
export function ColleagueFields<Value, Schema extends Record<string, unknown>>({
  name,
  email,
  relationship,
  relationshipHelp,
}: {
  name: Meta<Value, Schema>
  email: Meta<Value, Schema>
  relationship: Meta<Value, Schema>
  relationshipHelp?: string
}) {
  const { t } = useTranslation('invite')
  const options = useRelationshipOptions()
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t('fields.name')}
          inputProps={{ ...getInputProps(name, { type: 'text' }), autoComplete: 'off' }}
          errors={name.errors}
        />
        <Field
          label={t('fields.email')}
          inputProps={{
            ...getInputProps(email, { type: 'email' }),
            autoComplete: 'off',
            spellCheck: false,
          }}
          errors={email.errors}
        />
      </div>
      <SelectField
        label={t('fields.relationship')}
        className="flex flex-col gap-1 sm:max-w-xs"
        selectProps={getSelectProps(relationship)}
        options={options}
        placeholder={t('fields.choose')}
        help={relationshipHelp}
        errors={relationship.errors}
      />
    </>
  )
}
