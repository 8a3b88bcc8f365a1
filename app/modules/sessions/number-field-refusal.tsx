import { useLayoutEffect, useState, type FormEvent, type RefObject } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { refusalOf, type Limit } from './number-step'

/**
 * What leaving a number field does with a value outside its limits or off its
 * step (docs/product.md §15.2): 'clamp' moves it to the nearest allowed value
 * (a setting, whose new value the creator sees before sending); 'refuse'
 * keeps what was typed and says why (an amount of money is charged as typed
 * or not at all).
 */
export type OutOfRange = 'clamp' | 'refuse'

/** Whose words a refusal is in: a boost's ("The minimum boost is 10 coins"), or, without, the limits plainly ("Enter 10 or more"). */
export type RefusalWords = 'boost'

/**
 * A refusing field's side of docs/product.md §15.2. The value stays as typed;
 * while it is not allowed, the input's custom validity says why, so the
 * browser does not send the form (nor calls its submit handler). The reason
 * shows under the field when a send is refused, and goes as soon as the
 * value is allowed again. Not when the field is merely left: the reason
 * appearing then moved the submit button from under a pointer already on its
 * way to it, and the click was lost. A clamping field refuses nothing.
 */
export function useRefusal({
	mode,
	value,
	limit,
	words,
	locale,
	input,
	told: toldBefore = false,
}: {
	mode: OutOfRange
	value: number
	limit: Limit
	words: RefusalWords | undefined
	locale: string
	input: RefObject<HTMLInputElement | null>
	/** The field this one takes over from had already said why (React Aria's arriving just after a refused send). */
	told?: boolean
}) {
	const { t } = useTranslation()
	const why = mode === 'refuse' ? refusalOf(value, limit) : null
	let message: string | null = null
	if (why) {
		const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })
		message = t(`number-field.${words ? `${words}-` : ''}${why}`, {
			min: number.format(limit.min),
			max: number.format(limit.max),
			step: number.format(limit.step),
		})
	}
	const [told, setTold] = useState(toldBefore)
	// Allowed again: the reason goes, and a later one waits for the next leave or send.
	if (told && !why) setTold(false)
	useLayoutEffect(() => {
		input.current?.setCustomValidity(message ?? '')
	}, [input, message])
	return {
		/** The reason to show under the field, if any. */
		shown: told ? message : null,
		onInvalid: (event: FormEvent<HTMLInputElement>) => {
			if (mode !== 'refuse') return
			// The field says it under the input (the browser's bubble would say it twice, and vanish).
			event.preventDefault()
			setTold(true)
			// The browser would have put the focus on the form's first refused field.
			const target = event.currentTarget
			const controls = Array.from(target.form?.elements ?? []) as HTMLInputElement[]
			if (controls.find((control) => control.willValidate && !control.validity.valid) === target) target.focus()
		},
	}
}

/** The refusal under a field (already in words; ErrorList's entries are keys and codes). */
export function RefusalNote({ id, message }: { id?: string | undefined; message: string }) {
	return (
		<ul id={id} className="form-errors" role="alert">
			<li>{message}</li>
		</ul>
	)
}
