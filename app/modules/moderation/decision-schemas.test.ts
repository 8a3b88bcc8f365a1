import { describe, expect, test } from 'vitest'
import { parseAppeal, parseDecision } from './decision-schemas'

const form = (fields: Record<string, string>) => {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}
const target = '0b6f3d2e-2a4f-4c1e-9d5a-6e7f8a9b0c1d'

describe('the decision form', () => {
	test('takes a decision the item allows, with its ground and a trimmed explanation', () => {
		expect(parseDecision(form({ kind: 'report', target, action: 'remove_dare', ground: 'hate', explanation: '  A slur.  ' }))).toEqual({
			ok: true,
			value: { kind: 'report', target, action: 'remove_dare', ground: 'hate', explanation: 'A slur.' },
		})
		expect(parseDecision(form({ kind: 'appeal', target, action: 'appeal_granted', ground: 'none', explanation: 'Fair.' })).ok).toBe(true)
	})

	test('refuses what the item does not allow, a ground that does not fit, a missing or long explanation', () => {
		const base = { kind: 'held', target, action: 'approve_dare', ground: 'none', explanation: 'Fine.' }
		const error = (fields: Record<string, string>) => {
			const parsed = parseDecision(form({ ...base, ...fields }))
			return parsed.ok ? null : parsed.error
		}
		expect(error({})).toBeNull()
		expect(error({ action: 'suspend_user', ground: 'spam' })).toBe('error-invalid-decision')
		expect(error({ action: 'delete_everything' })).toBe('error-invalid-decision')
		expect(error({ target: 'not-a-uuid' })).toBe('error-invalid-decision')
		expect(error({ ground: 'hate' })).toBe('operator.ground-none')
		expect(error({ action: 'remove_dare' })).toBe('operator.ground-needed')
		expect(error({ action: 'remove_dare', ground: '' })).toBe('operator.ground-needed')
		expect(error({ explanation: '   ' })).toBe('error-decision-explanation-required')
		expect(error({ explanation: 'x'.repeat(2001) })).toBe('error-decision-explanation-required')
	})
})

describe('the appeal form', () => {
	test('a statement of 1 to 2,000 characters', () => {
		expect(parseAppeal(form({ statement: ' It was a quote. ' }))).toEqual({ ok: true, statement: 'It was a quote.' })
		expect(parseAppeal(form({ statement: ' ' }))).toEqual({ ok: false, error: 'error-appeal-statement-required' })
		expect(parseAppeal(form({}))).toEqual({ ok: false, error: 'error-appeal-statement-required' })
		expect(parseAppeal(form({ statement: 'x'.repeat(2001) }))).toEqual({ ok: false, error: 'error-appeal-statement-too-long' })
	})
})
