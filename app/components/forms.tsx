import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { useNavigation } from 'react-router'
import { translateError } from '#app/i18n/errors'

type ErrorsProps = { id?: string; errors?: string[] | null }

/**
 * Field and form errors. Validation messages are translation keys (the Zod
 * schemas use keys as messages) and server errors are `error-…` codes; both
 * are translated here, anything else is shown as the unknown error.
 */
export function ErrorList({ id, errors }: ErrorsProps) {
	const { t, i18n } = useTranslation()
	const list = errors?.filter(Boolean) ?? []
	if (list.length === 0) return null
	return (
		<ul id={id} className="form-errors" role="alert">
			{list.map((e) => (
				<li key={e}>{translateError(t, e, i18n.language)}</li>
			))}
		</ul>
	)
}

export function Field({
	label,
	inputProps,
	errors,
	hint,
	className = 'field',
}: {
	className?: string
	label: ReactNode
	inputProps: InputHTMLAttributes<HTMLInputElement> & { key?: string | undefined }
	errors?: string[] | undefined
	hint?: ReactNode
}) {
	const fallbackId = useId()
	const { key, ...props } = inputProps
	const id = props.id ?? fallbackId
	return (
		<div className={className}>
			<label htmlFor={id}>{label}</label>
			<input key={key} {...props} id={id} {...describedBy(id, hint, errors)} />
			<FieldNotes id={id} hint={hint} errors={errors} />
		</div>
	)
}

/** The input's side of FieldNotes: aria-invalid and aria-describedby naming the hint and the errors. */
export function describedBy(id: string, hint: ReactNode, errors: string[] | undefined) {
	const ids = [errors?.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean)
	return { 'aria-invalid': errors?.length ? true : undefined, 'aria-describedby': ids.join(' ') || undefined }
}

/** What a field says under its input: its hint, then its errors (ids from the input's id, see describedBy). */
export function FieldNotes({ id, hint, errors }: { id: string; hint?: ReactNode; errors?: string[] | undefined }) {
	return (
		<>
			{hint ? (
				<p id={`${id}-hint`} className="field__hint">
					{hint}
				</p>
			) : null}
			<ErrorList id={errors?.length ? `${id}-error` : undefined} errors={errors} />
		</>
	)
}

/** A submit button that says it is busy while its form is being submitted. */
export function SubmitButton({
	children,
	intent,
	className = 'button button--primary',
	pending,
}: {
	children: ReactNode
	intent?: string
	className?: string
	/** Whether this form is being sent, when not by a navigation (a fetcher's form). */
	pending?: boolean
}) {
	const navigation = useNavigation()
	const busy =
		pending ?? (navigation.state === 'submitting' && (intent === undefined || navigation.formData?.get('intent') === intent))
	return (
		<button type="submit" name={intent ? 'intent' : undefined} value={intent} className={className} aria-busy={busy || undefined} disabled={busy}>
			{children}
		</button>
	)
}
