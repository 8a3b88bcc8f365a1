import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { flushSync } from 'react-dom'
import { ErrorList, Field } from '#app/components/forms'
import { useHydrated } from '#app/utils/use-hydrated'
import type * as AriaModule from './aria-number-field'
import { RefusalNote, useRefusal, type OutOfRange, type RefusalWords } from './number-field-refusal'
import { stepBy, type Limit } from './number-step'

export type { OutOfRange, RefusalWords }

export interface NumberFieldProps {
	name: string
	label: string
	hint?: ReactNode
	limit: Limit
	defaultValue: number | undefined
	errors?: string[] | undefined
	locale: string
	/**
	 * A value outside the limits or off the step (docs/product.md §15.2):
	 * 'refuse', the default, keeps it and keeps the form from being sent,
	 * saying why (amounts of money: what is charged is what was typed);
	 * 'clamp' moves it to the nearest allowed value when the field is left
	 * (the start-session settings).
	 */
	outOfRange?: OutOfRange
	/** The words of a refusal: 'boost' for a boost's amount; without, the limits plainly. */
	refusals?: RefusalWords
	/**
	 * Called once the field holds a new value and the form has it (the field
	 * was left, stepped, or Enter pressed): where a form checks a rule across
	 * fields. The named input also gets an input event whenever its value
	 * changes, as a native input would, so the form's own revalidation sees it.
	 */
	onCommit?: (value: number) => void
}

type Enhanced = typeof AriaModule
let enhanced: Enhanced | null = null
let loading: Promise<Enhanced> | null = null
/** The plain fields on the page, told when React Aria has loaded (all of them take it over at once). */
const plainFields = new Set<(module: Enhanced) => void>()

/** React Aria's field, once per page visit (a failed load is tried again at the next reach). */
function loadEnhanced(): void {
	loading ??= import('./aria-number-field').then(
		(module) => {
			enhanced = module
			for (const takeOver of plainFields) takeOver(module)
			return module
		},
		(error: unknown) => {
			loading = null
			throw error
		},
	)
	// A failed load leaves the plain fields, which still work.
	loading.catch(() => {})
}

/**
 * A whole-number field with the behaviour of docs/product.md §15.2: a value
 * outside min and max or off the step is refused (the default: the form is
 * not sent, and the field says why) or clamped and snapped when the field is
 * left (`outOfRange="clamp"`); arrow keys and the steppers
 * move one step (press and hold repeats after 400 ms, then every 60 ms), Page
 * Up/Down ten steps, Home/End jump to min/max, typing accepts only what is
 * valid in the page's locale, and an unparsable value becomes empty. React
 * Aria's NumberField does most of that (aria-number-field.tsx).
 *
 * Without JavaScript (and until hydration) it is a plain <input type=number>
 * with the same min, max and step, which the browser enforces on submit.
 * Hydrated, it looks like the React Aria field and takes digits only; React
 * Aria (26 KB of the session page's first load, ADR 038) loads when the
 * pointer comes near or the field gets focus, and takes over with the value
 * and the focus. A form sent before that sends the digits (a refusing field
 * refuses them as React Aria's would), which the server checks as it checks
 * every value.
 */
export function NumberField(props: NumberFieldProps) {
	const { name, label, hint, limit, defaultValue, errors, locale, outOfRange = 'refuse', refusals, onCommit } = props
	const hydrated = useHydrated()
	const id = useId()
	const [text, setText] = useState(defaultValue === undefined ? '' : String(defaultValue))
	const value = text === '' ? Number.NaN : Number(text)
	const input = useRef<HTMLInputElement | null>(null)
	const refusal = useRefusal({ mode: outOfRange, value, limit, words: refusals, locale, input })
	// The value last handed to onCommit (the plain field commits when left or stepped).
	const committed = useRef(value)
	const commit = () => {
		if (Object.is(committed.current, value)) return
		committed.current = value
		onCommit?.(value)
	}
	// Where the caret was if the plain input had the focus when React Aria
	// took over: taken as the input leaves the page (its ref's cleanup runs
	// before it is removed), read by the new field as it mounts. Taken any
	// earlier, a focus that had moved on to another field since was pulled
	// back (CI's start-session journey typed one field's value into another).
	const handoff = useRef<[number, number] | null>(null)
	const plainInput = useCallback((node: HTMLInputElement | null) => {
		input.current = node
		if (!node) return
		return () => {
			if (document.activeElement === node) handoff.current = [node.selectionStart ?? node.value.length, node.selectionEnd ?? node.value.length]
		}
	}, [])
	const takeFocus = useCallback(() => {
		const selection = handoff.current
		handoff.current = null
		return selection
	}, [])
	// Already loaded (a later page of the visit): React Aria from the start.
	const [Swap, setSwap] = useState<Enhanced['AriaNumberField'] | null>(() => enhanced?.AriaNumberField ?? null)
	useEffect(() => {
		if (!hydrated || Swap) return
		const takeOver = (module: Enhanced) => setSwap(() => module.AriaNumberField)
		plainFields.add(takeOver)
		return () => void plainFields.delete(takeOver)
	}, [hydrated, Swap])

	if (!hydrated) {
		return (
			<Field
				className="field number-field"
				label={label}
				hint={hint}
				errors={errors}
				inputProps={{ id, name, type: 'number', inputMode: 'numeric', required: true, min: limit.min, max: limit.max, step: limit.step, defaultValue }}
			/>
		)
	}
	if (Swap) {
		// What the field holds now (the plain input is controlled): nothing typed before the swap is lost.
		return (
			<Swap
				name={name}
				label={label}
				hint={hint}
				limit={limit}
				value={value}
				errors={errors}
				locale={locale}
				outOfRange={outOfRange}
				refusals={refusals}
				onCommit={onCommit}
				takeFocus={takeFocus}
				told={refusal.shown !== null}
			/>
		)
	}
	const step = (steps: number) => {
		const next = String(text === '' ? limit.min : stepBy(Number(text), steps, limit))
		// In the input before the form hears of it, as a keystroke would be.
		flushSync(() => setText(next))
		input.current?.dispatchEvent(new Event('input', { bubbles: true }))
		committed.current = Number(next)
		onCommit?.(Number(next))
	}
	const invalid = Boolean(errors?.length) || refusal.shown !== null
	const notes = [refusal.shown ? `${id}-refusal` : null, errors?.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean)
	return (
		<div className="field number-field" onPointerEnter={loadEnhanced} onFocus={loadEnhanced}>
			<label htmlFor={id}>{label}</label>
			<div className="number-field__group number-field__group--plain">
				<button type="button" className="number-field__step" tabIndex={-1} aria-hidden onClick={() => step(-1)}>
					−
				</button>
				<input
					ref={plainInput}
					id={id}
					name={name}
					className="number-field__input"
					type="text"
					inputMode="numeric"
					autoComplete="off"
					required
					value={text}
					onChange={(event) => setText(event.target.value.replace(/\D/g, ''))}
					onBlur={commit}
					onInvalid={refusal.onInvalid}
					aria-invalid={invalid || undefined}
					aria-describedby={notes.join(' ') || undefined}
				/>
				<button type="button" className="number-field__step" tabIndex={-1} aria-hidden onClick={() => step(1)}>
					+
				</button>
			</div>
			{hint ? (
				<p id={`${id}-hint`} className="field__hint">
					{hint}
				</p>
			) : null}
			{refusal.shown ? <RefusalNote id={`${id}-refusal`} message={refusal.shown} /> : null}
			<ErrorList id={errors?.length ? `${id}-error` : undefined} errors={errors} />
		</div>
	)
}
