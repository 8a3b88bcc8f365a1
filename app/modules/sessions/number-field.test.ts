import { describe, expect, test } from 'vitest'
import { caretAfterDigits, pageStep } from './number-step'
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
})
