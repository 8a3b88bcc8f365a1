import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { expect, test } from 'vitest'
import { parsePayoutDecision, PayoutQuoteSchema, PayoutRequestSchema } from './schemas'

const form = (fields: Record<string, string>) => {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}

test('a request names whole coins and carries the key the page minted; anything else is refused with an error code', () => {
	const ok = parseWithZod(form({ intent: 'payout-request', coins: '2500', idempotencyKey: randomUUID() }), { schema: PayoutRequestSchema })
	expect(ok.status).toBe('success')
	for (const coins of ['', '0', '-5', '12.5', 'lots']) {
		const refused = parseWithZod(form({ intent: 'payout-quote', coins, idempotencyKey: randomUUID() }), { schema: PayoutQuoteSchema })
		expect(refused.status === 'error' ? refused.error?.coins : null, coins).toEqual(['error-invalid-amount'])
	}
	const keyless = parseWithZod(form({ intent: 'payout-request', coins: '2500', idempotencyKey: 'short' }), { schema: PayoutRequestSchema })
	expect(keyless.status === 'error' ? keyless.error?.idempotencyKey : null).toEqual(['error-invalid-idempotency-key'])
})

test('an approval takes no measure (its ground is none); a rejection names a rule and explains', () => {
	const target = randomUUID()
	const approve = parsePayoutDecision(form({ kind: 'payout', target, action: 'approve_payout', ground: 'spam', explanation: 'Fine.' }))
	expect(approve).toEqual({ ok: true, value: { kind: 'payout', target, action: 'approve_payout', ground: 'none', explanation: 'Fine.' } })
	expect(parsePayoutDecision(form({ kind: 'payout', target, action: 'reject_payout', ground: 'none', explanation: 'No.' }))).toEqual({ ok: false, error: 'operator.ground-needed' })
	expect(parsePayoutDecision(form({ kind: 'payout', target, action: 'reject_payout', ground: 'other', explanation: '  ' }))).toEqual({
		ok: false,
		error: 'error-decision-explanation-required',
	})
	expect(parsePayoutDecision(form({ kind: 'payout', target, action: 'remove_dare', ground: 'other', explanation: 'x' }))).toEqual({ ok: false, error: 'error-invalid-decision' })
	expect(parsePayoutDecision(form({ kind: 'payout', target: 'nope', action: 'reject_payout', ground: 'other', explanation: 'x' }))).toEqual({ ok: false, error: 'error-invalid-decision' })
	expect(parsePayoutDecision(form({ kind: 'payout', target, action: 'reject_payout', ground: 'spam', explanation: ' Fake accounts. ' }))).toEqual({
		ok: true,
		value: { kind: 'payout', target, action: 'reject_payout', ground: 'spam', explanation: 'Fake accounts.' },
	})
})
