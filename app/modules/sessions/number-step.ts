/** A number field's limits. */
export type Limit = { min: number; max: number; step: number }

/** Ten steps from `value`, snapped to the step grid from min and kept within min and max. */
export function pageStep(value: number, direction: 1 | -1, limit: Limit): number {
	return stepBy(value, direction * 10, limit)
}

/** `steps` steps from `value` (snapped to the step grid from min first), kept within min and max. */
export function stepBy(value: number, steps: number, limit: Limit): number {
	const snapped = limit.min + Math.round((value - limit.min) / limit.step) * limit.step
	return Math.min(limit.max, Math.max(limit.min, snapped + steps * limit.step))
}

/**
 * Where a caret that stood after `digits` digits of the plain field stands in
 * React Aria's formatted value ("1200" becomes "1,200" or "1.200").
 */
export function caretAfterDigits(formatted: string, digits: number): number {
	if (digits <= 0) return 0
	let seen = 0
	for (let i = 0; i < formatted.length; i++) {
		if (formatted[i]! >= '0' && formatted[i]! <= '9' && ++seen === digits) return i + 1
	}
	return formatted.length
}

/** Why a field that keeps what was typed refuses its value (docs/product.md §15.2). */
export type Refusal = 'below-min' | 'above-max' | 'off-step'

/**
 * Why `value` is not one the field allows: below min (an empty field too:
 * there is nothing to send), above max, or off the step grid from min. Null
 * when it is allowed.
 */
export function refusalOf(value: number, limit: Limit): Refusal | null {
	if (Number.isNaN(value) || value < limit.min) return 'below-min'
	if (value > limit.max) return 'above-max'
	if ((value - limit.min) % limit.step !== 0) return 'off-step'
	return null
}
