import { describe, expect, test } from 'vitest'
import { caretAfterDigits, pageStep, refusalOf } from './number-step'
import { SESSION_LIMITS, StartSessionSchema } from './schemas'

describe('pageStep', () => {
	test('moves ten steps and stays within the limits', () => {
		expect(pageStep(200, 1, SESSION_LIMITS.minBoost)).toBe(300)
		expect(pageStep(200, -1, SESSION_LIMITS.minBoost)).toBe(100)
		expect(pageStep(60, -1, SESSION_LIMITS.minBoost)).toBe(50)
		expect(pageStep(99_990, 1, SESSION_LIMITS.minBoost)).toBe(100_000)
	})

	test('snaps an off-step value to the step grid from the minimum first', () => {
		expect(pageStep(33, 1, SESSION_LIMITS.votingDuration)).toBe(85)
		expect(pageStep(57, 1, SESSION_LIMITS.minBoost)).toBe(160)
	})
})

describe('caretAfterDigits', () => {
	test('a caret after n digits stands after the same n digits once the value is grouped', () => {
		expect(caretAfterDigits('1,200', 0)).toBe(0)
		expect(caretAfterDigits('1,200', 1)).toBe(1)
		expect(caretAfterDigits('1,200', 2)).toBe(3)
		expect(caretAfterDigits('1.200', 4)).toBe(5)
		expect(caretAfterDigits('100 000', 6)).toBe(7)
		expect(caretAfterDigits('', 3)).toBe(0)
	})
})

describe('refusalOf', () => {
	const boost = { min: 10, max: 1_000_000, step: 10 }
	test('names why a refusing field refuses a value, and allows the grid within the limits', () => {
		expect(refusalOf(5, boost)).toBe('below-min')
		expect(refusalOf(Number.NaN, boost)).toBe('below-min')
		expect(refusalOf(15, boost)).toBe('off-step')
		expect(refusalOf(12.5, boost)).toBe('off-step')
		expect(refusalOf(1_000_010, boost)).toBe('above-max')
		expect(refusalOf(10, boost)).toBeNull()
		expect(refusalOf(1_000_000, boost)).toBeNull()
		// The grid runs from the minimum.
		expect(refusalOf(35, { min: 30, max: 3600, step: 5 })).toBeNull()
		expect(refusalOf(33, { min: 30, max: 3600, step: 5 })).toBe('off-step')
	})
})

describe('StartSessionSchema', () => {
	const valid = { title: 'Live', platform: 'twitch', maxDaresPerUser: 5, maxFreeDaresPerUser: 1, minBoost: 200, votingDuration: 180 }
	const messages = (input: Record<string, unknown>) => {
		const result = StartSessionSchema.safeParse({ ...valid, ...input })
		return result.success ? [] : result.error.issues.map((i) => i.message)
	}

	test('accepts the edges of docs/product.md §5.2', () => {
		expect(messages({ title: 'x'.repeat(140), minBoost: 50, maxDaresPerUser: 1, maxFreeDaresPerUser: 1, votingDuration: 30 })).toEqual([])
		expect(messages({ minBoost: 100_000, maxDaresPerUser: 100, maxFreeDaresPerUser: 0, votingDuration: 3600 })).toEqual([])
	})

	test('refuses each value beyond its edge with its message', () => {
		expect(messages({ title: '   ' })).toEqual(['validation.title-required'])
		expect(messages({ title: 'x'.repeat(141) })).toEqual(['validation.title-too-long'])
		expect(messages({ minBoost: 40 })).toEqual(['validation.min-boost-min'])
		expect(messages({ minBoost: 55 })).toEqual(['validation.min-boost-step'])
		expect(messages({ maxDaresPerUser: 0, maxFreeDaresPerUser: 0 })).toEqual(['validation.max-dares-min'])
		expect(messages({ maxFreeDaresPerUser: 6 })).toEqual(['validation.max-free-dares-above-max'])
		expect(messages({ votingDuration: 31 })).toEqual(['validation.voting-duration-step'])
		expect(messages({ platform: 'tiktok' })).toEqual(['validation.platform-required'])
	})

	test('checks free dares against dares per viewer whatever the other fields hold (an empty title too)', () => {
		expect(messages({ title: undefined, maxDaresPerUser: 1, maxFreeDaresPerUser: 9 })).toEqual(['validation.title-required', 'validation.max-free-dares-above-max'])
		// Not when one of the two is itself wrong: its own message says enough.
		expect(messages({ maxDaresPerUser: 0, maxFreeDaresPerUser: 9 })).toEqual(['validation.max-dares-min'])
	})

	test('a form that asked for the creator agreement needs it ticked', () => {
		expect(messages({ agreementAsked: 'yes' })).toEqual(['error-creator-agreement-required'])
		expect(messages({ agreementAsked: 'yes', acceptAgreement: 'accept' })).toEqual([])
		expect(messages({ title: undefined, agreementAsked: 'yes' })).toEqual(['validation.title-required', 'error-creator-agreement-required'])
		// Not asked (the creator accepted before): nothing to tick.
		expect(messages({})).toEqual([])
	})
})
