import { expect, test } from 'vitest'
import { isAcceptableEmail, isAcceptablePassword, isOAuthProvider, isPlausiblePassword, normaliseEmail } from './rules.server'

test('addresses: trimmed and lower-cased, well formed, at most 100 characters', () => {
	expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com')
	expect(isAcceptableEmail('ada@example.com')).toBe(true)
	expect(isAcceptableEmail('ada@')).toBe(false)
	expect(isAcceptableEmail(`${'a'.repeat(88)}@example.com`)).toBe(true)
	expect(isAcceptableEmail(`${'a'.repeat(89)}@example.com`)).toBe(false)
})

test('passwords: new ones 6 to 100 characters; current ones anything from 1 to 100', () => {
	expect([5, 6, 100, 101].map((n) => isAcceptablePassword('x'.repeat(n)))).toEqual([false, true, true, false])
	expect([0, 1, 100, 101].map((n) => isPlausiblePassword('x'.repeat(n)))).toEqual([false, true, true, false])
})

test('providers', () => {
	expect(['google', 'twitch', 'github', null].map(isOAuthProvider)).toEqual([true, true, false, false])
})
