import { expect, test } from 'vitest'
import { minorUnitsFor, requirementKinds } from './money'

test('coins at the operator’s rate, in whole minor units rounded down, computed without floating point', () => {
	expect(minorUnitsFor(1000, '0.7')).toBe(700)
	expect(minorUnitsFor(1000, '0.7000')).toBe(700)
	expect(minorUnitsFor(3, '0.7')).toBe(2)
	// 0.1 + 0.2 style sums stay exact: 0.29 × 100 is 29, not 28.999….
	expect(minorUnitsFor(100, '0.29')).toBe(29)
	expect(minorUnitsFor(12_345, '1')).toBe(12_345)
	expect(minorUnitsFor(0, '0.7')).toBe(0)
	expect(minorUnitsFor(10, 'not a number')).toBe(0)
})

test('what the provider still needs: each kind once, in the page’s order; an unknown code reads as other', () => {
	expect(requirementKinds(['terms', 'identity', 'identity'])).toEqual(['identity', 'terms'])
	expect(requirementKinds(['individual.dob.day', 'bank_account'])).toEqual(['bank_account', 'other'])
	expect(requirementKinds([])).toEqual([])
})
