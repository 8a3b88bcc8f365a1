import { useContext, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { Button, Group, I18nProvider, Input, Label, NumberField, NumberFieldStateContext, Text } from 'react-aria-components'
import { ErrorList } from '#app/components/forms'
import { RefusalNote, useRefusal } from './number-field-refusal'
import { caretAfterDigits, pageStep } from './number-step'
import type { NumberFieldProps } from './number-field'

/**
 * The number field once a visitor reaches for it: React Aria's NumberField
 * (docs/decisions/017-react-aria-number-field.md), loaded on first use (see
 * NumberField). Its hidden input carries the number under `name`.
 *
 * React Aria snaps a value when the field is left (commitBehavior 'snap') for
 * a clamping field; a refusing one keeps it ('validate') and useRefusal says
 * why. The hidden input follows what is typed, but a hidden input's value
 * set by React fires no event: the field fires the input event itself, so a
 * form that revalidates on input (Conform) sees every change, the snapped
 * value included.
 */
export function AriaNumberField({
	name,
	label,
	hint,
	limit,
	value: initialValue,
	errors,
	locale,
	outOfRange = 'refuse',
	refusals,
	onCommit,
	takeFocus,
	told,
}: Omit<NumberFieldProps, 'defaultValue'> & {
	value: number
	/** The caret to take over, if the field this one replaces had the focus (once). */
	takeFocus?: () => [number, number] | null
	/** The field this one replaces showed its refusal: so does this one. */
	told?: boolean
}) {
	const [value, setValue] = useState(initialValue)
	// What the field reads as typed so far (React Aria's parse of the text), for the refusal.
	const [typed, setTyped] = useState(initialValue)
	const input = useRef<HTMLInputElement>(null)
	const field = useRef<HTMLDivElement>(null)
	const refusal = useRefusal({ mode: outOfRange, value: typed, limit, words: refusals, locale, input, told })
	// Taking over the field that had the focus: the focus and the selection
	// come along, so what is typed next lands where it would have in the
	// plain field. In the same commit as the swap (a layout effect, not
	// autoFocus, which waits for a passive effect after paint): otherwise a
	// key pressed in between finds the focus on no field and is lost.
	useLayoutEffect(() => {
		const selection = takeFocus?.()
		const field = input.current
		if (!selection || !field) return
		field.focus()
		field.setSelectionRange(caretAfterDigits(field.value, selection[0]), caretAfterDigits(field.value, selection[1]))
	}, [takeFocus])
	// A committed change, once the form holds it (the hidden input is rendered by then).
	const committed = useRef(value)
	useEffect(() => {
		if (Object.is(committed.current, value)) return
		committed.current = value
		onCommit?.(value)
	}, [value, onCommit])
	// React Aria moves one step on Page Up/Down; docs/product.md §15.2 wants ten. Handled
	// before the input's own key handler, which then never sees the key.
	const onPageKeys = (event: KeyboardEvent) => {
		if (event.key !== 'PageUp' && event.key !== 'PageDown') return
		if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
		event.preventDefault()
		event.stopPropagation()
		const direction = event.key === 'PageUp' ? 1 : -1
		const base = Number.isNaN(value) ? (direction > 0 ? limit.min : limit.max) : value
		setValue(pageStep(base, direction, limit))
	}
	const invalid = Boolean(errors?.length) || refusal.shown !== null
	return (
		<I18nProvider locale={locale}>
			<NumberField
				ref={field}
				name={name}
				minValue={limit.min}
				maxValue={limit.max}
				step={limit.step}
				commitBehavior={outOfRange === 'clamp' ? 'snap' : 'validate'}
				value={value}
				onChange={setValue}
				formatOptions={{ maximumFractionDigits: 0 }}
				isRequired
				isInvalid={invalid}
				validationBehavior="aria"
				className="field number-field"
			>
				<Label>{label}</Label>
				<Group className="number-field__group" onKeyDownCapture={onPageKeys}>
					<Button slot="decrement" className="number-field__step">
						−
					</Button>
					<Input ref={input} className="number-field__input" onInvalid={refusal.onInvalid} />
					<Button slot="increment" className="number-field__step">
						+
					</Button>
				</Group>
				{hint ? (
					<Text slot="description" className="field__hint">
						{hint}
					</Text>
				) : null}
				{invalid ? (
					<Text slot="errorMessage" elementType="div">
						{refusal.shown ? <RefusalNote message={refusal.shown} /> : null}
						<ErrorList errors={errors} />
					</Text>
				) : null}
				<TypedValue field={field} name={name} initial={initialValue} onTyped={setTyped} />
			</NumberField>
		</I18nProvider>
	)
}

/**
 * Reports React Aria's reading of the text as it is typed, and fires the
 * input event on the hidden input that carries it (see AriaNumberField)
 * whenever it differs from what the form last held: the field's value when
 * React Aria took over (which a clamping field may already have snapped),
 * then each reading.
 */
function TypedValue({
	field,
	name,
	initial,
	onTyped,
}: {
	field: RefObject<HTMLDivElement | null>
	name: string
	initial: number
	onTyped: (value: number) => void
}) {
	const state = useContext(NumberFieldStateContext)
	const typed = state ? state.numberValue : Number.NaN
	const held = useRef(initial)
	useEffect(() => {
		onTyped(typed)
		if (Object.is(held.current, typed)) return
		held.current = typed
		const hidden = field.current?.nextElementSibling
		if (hidden instanceof HTMLInputElement && hidden.name === name) hidden.dispatchEvent(new Event('input', { bubbles: true }))
	}, [typed, field, name, onTyped])
	return null
}
