import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Button, Group, I18nProvider, Input, Label, NumberField, Text } from 'react-aria-components'
import { ErrorList } from '#app/components/forms'
import { caretAfterDigits, pageStep } from './number-step'
import type { NumberFieldProps } from './number-field'

/**
 * The number field once a visitor reaches for it: React Aria's NumberField
 * (docs/decisions/017-react-aria-number-field.md), loaded on first use (see
 * NumberField). Its hidden input carries the number under `name`.
 */
export function AriaNumberField({
	name,
	label,
	hint,
	limit,
	value: initialValue,
	errors,
	locale,
	takeFocus,
}: Omit<NumberFieldProps, 'defaultValue'> & {
	value: number
	/** The caret to take over, if the field this one replaces had the focus (once). */
	takeFocus?: () => [number, number] | null
}) {
	const [value, setValue] = useState(initialValue)
	const input = useRef<HTMLInputElement>(null)
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
	const invalid = Boolean(errors?.length)
	return (
		<I18nProvider locale={locale}>
			<NumberField
				name={name}
				minValue={limit.min}
				maxValue={limit.max}
				step={limit.step}
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
					<Input ref={input} className="number-field__input" />
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
						<ErrorList errors={errors} />
					</Text>
				) : null}
			</NumberField>
		</I18nProvider>
	)
}
