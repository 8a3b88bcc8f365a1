import { expect, test } from 'vitest'
import { refusalStatus } from './refusal.server'

const post = (headers: Record<string, string> = {}) => new Request('http://localhost/en/login', { method: 'POST', headers })

test('a form the browser posts itself keeps the status that says what happened', () => {
	const document = post({ 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' })
	expect([400, 409, 422, 429].map((status) => refusalStatus(document, status))).toEqual([400, 409, 422, 429])
})

test('the page’s script (a fetch of the action’s data) gets 200 for a refusal, so the browser logs no error', () => {
	const script = post({ 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' })
	expect([400, 409, 422, 429].map((status) => refusalStatus(script, status))).toEqual([200, 200, 200, 200])
})

test('a server’s failure stays one, and a client without Sec-Fetch headers gets the status itself', () => {
	const script = post({ 'sec-fetch-dest': 'empty' })
	expect([500, 503].map((status) => refusalStatus(script, status))).toEqual([500, 503])
	expect(refusalStatus(post(), 409)).toBe(409)
})
