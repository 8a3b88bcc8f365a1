import { afterEach, expect, test, vi } from 'vitest'
import { fetchWithRetry, RETRY_STATUSES } from './fetch-with-retry'

afterEach(() => {
	vi.unstubAllGlobals()
})

const noWait = { sleep: async () => {} }

function stubFetch(...answers: Array<number | Error>) {
	const calls: RequestInit[] = []
	// why: the network is outside the unit; each answer is what one attempt gets.
	vi.stubGlobal('fetch', async (_input: unknown, init: RequestInit) => {
		calls.push(init)
		const next = answers.shift()
		if (next instanceof Error) throw next
		return new Response(null, { status: next ?? 200 })
	})
	return calls
}

test('retries every status of docs/product.md §15.3 and returns the first success', async () => {
	expect([...RETRY_STATUSES].sort()).toEqual([408, 409, 425, 429, 500, 502, 503, 504])
	for (const status of RETRY_STATUSES) {
		const calls = stubFetch(status, 200)
		const body = new FormData()
		body.set('idempotencyKey', 'k-1')
		const response = await fetchWithRetry('/api/x', { method: 'POST', body }, noWait)
		expect(response.status).toBe(200)
		expect(calls).toHaveLength(2)
		// The same body, so the same idempotency key, goes out again.
		expect((calls[1]!.body as FormData).get('idempotencyKey')).toBe('k-1')
	}
})

test('does not retry other failures such as 400, 401 or 404', async () => {
	for (const status of [400, 401, 403, 404, 422]) {
		const calls = stubFetch(status, 200)
		expect((await fetchWithRetry('/api/x', {}, noWait)).status).toBe(status)
		expect(calls).toHaveLength(1)
	}
})

test('gives up after the last retry with the last response, and retries network errors', async () => {
	const calls = stubFetch(503, 503, 503, 503, 200)
	expect((await fetchWithRetry('/api/x', {}, noWait)).status).toBe(503)
	expect(calls).toHaveLength(4)

	const after = stubFetch(new TypeError('network'), 200)
	expect((await fetchWithRetry('/api/x', {}, noWait)).status).toBe(200)
	expect(after).toHaveLength(2)
})

test('waits longer after each attempt', async () => {
	stubFetch(502, 502, 502, 200)
	const waits: number[] = []
	await fetchWithRetry('/api/x', {}, { sleep: async (ms) => void waits.push(ms), baseDelayMs: 100 })
	expect(waits).toHaveLength(3)
	expect(waits[0]!).toBeLessThanOrEqual(100)
	expect(waits[2]!).toBeGreaterThanOrEqual(200)
})
