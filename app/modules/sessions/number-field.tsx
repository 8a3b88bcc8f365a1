import { useId, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Button, Group, I18nProvider, Input, Label, NumberField as AriaNumberField, Text } from 'react-aria-components'
import { ErrorList, Field } from '#app/components/forms'
import { useHydrated } from '#app/utils/use-hydrated'

type Limit = { min: number; max: number; step: number }

/**
 * A whole-number field with the spec's number-field behaviour (section 5):
 * clamped to min and max and snapped to the step on blur, arrow keys and the
 * steppers move one step (press and hold repeats after 400 ms, then every
 * 60 ms), Page Up/Down ten steps, Home/End jump to min/max, typing accepts only
 * what is valid in the page's locale, and an unparsable value becomes empty.
 * React Aria's NumberField does all of that (docs/decisions/017-react-aria-number-field.md);
 * its hidden input carries the number under `name`.
 *
 * Without JavaScript (and until hydration) it is a plain <input type=number>
 * with the same min, max and step, which the browser enforces on submit.
 */
export function NumberField({
	name,
	label,
	hint,
	limit,
	defaultValue,
	errors,
	locale,
}: {
	name: string
	label: string
	hint?: ReactNode
	limit: Limit
	defaultValue: number | undefined
	errors?: string[] | undefined
	locale: string
}) {
	const hydrated = useHydrated()
	const id = useId()
	const [value, setValue] = useState(defaultValue ?? Number.NaN)
	// React Aria moves one step on Page Up/Down; the spec wants ten. Handled
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
	return (
		<I18nProvider locale={locale}>
			<AriaNumberField
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
					<Input className="number-field__input" />
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
			</AriaNumberField>
		</I18nProvider>
	)
}

/** Ten steps from `value`, snapped to the step grid from min and kept within min and max. */
export function pageStep(value: number, direction: 1 | -1, limit: Limit): number {
	const snapped = limit.min + Math.round((value - limit.min) / limit.step) * limit.step
	return Math.min(limit.max, Math.max(limit.min, snapped + direction * 10 * limit.step))
}
