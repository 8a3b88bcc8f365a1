import { expect, test } from 'vitest'
import { isSameOriginRequest } from './same-origin.server'

const allowed = ['https://dares.example']
const post = (headers: Record<string, string>) =>
	new Request('https://dares.example/en/login', { method: 'POST', headers })

test('reads are always allowed', () => {
	expect(isSameOriginRequest(new Request('https://dares.example/en', { headers: { origin: 'https://evil.example' } }), allowed)).toBe(true)
})

test('a POST from our own pages passes', () => {
	expect(isSameOriginRequest(post({ origin: 'https://dares.example', 'sec-fetch-site': 'same-origin' }), allowed)).toBe(true)
	expect(isSameOriginRequest(post({ referer: 'https://dares.example/en/login' }), allowed)).toBe(true)
})

test('a POST from another site is refused', () => {
	expect(isSameOriginRequest(post({ origin: 'https://evil.example' }), allowed)).toBe(false)
	expect(isSameOriginRequest(post({ 'sec-fetch-site': 'cross-site' }), allowed)).toBe(false)
	expect(isSameOriginRequest(post({ 'sec-fetch-site': 'same-site', origin: 'https://sub.dares.example' }), allowed)).toBe(false)
	expect(isSameOriginRequest(post({ origin: 'null' }), allowed)).toBe(false)
	expect(isSameOriginRequest(post({ referer: 'https://evil.example/page' }), allowed)).toBe(false)
	expect(isSameOriginRequest(post({ referer: 'not a url' }), allowed)).toBe(false)
})

test('a client that is not a browser (no Origin, no Referer) is not a CSRF vector and passes', () => {
	expect(isSameOriginRequest(post({}), allowed)).toBe(true)
})
