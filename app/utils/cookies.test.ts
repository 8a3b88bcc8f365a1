import { expect, test } from 'vitest'
import { cookieNames, cookiePairs, readCookie } from './cookies'

test('a Cookie header reads as trimmed name=value pairs; a part without = is a cookie without a name; empty parts are none', () => {
	expect(cookiePairs(' a=1;b = two ; ;flag; c=x=y;=v;')).toEqual([
		['a', '1'],
		['b', 'two'],
		['', 'flag'],
		['c', 'x=y'],
		['', 'v'],
	])
	expect(cookiePairs(undefined)).toEqual([])
	expect(cookiePairs('')).toEqual([])
	expect(cookieNames('a=1; flag; b=')).toEqual(['a', '', 'b'])
})

test('a cookie’s value is the first of its name, percent-decoded; one that does not decode is none', () => {
	const header = 'i18n_redirected=tr; return=%2Fen%2Fshop%3Fx%3D1; i18n_redirected=de; bad=%E0%A4%A; empty='
	expect(readCookie(header, 'i18n_redirected')).toBe('tr')
	expect(readCookie(header, 'return')).toBe('/en/shop?x=1')
	expect(readCookie(header, 'bad')).toBeNull()
	expect(readCookie(header, 'empty')).toBe('')
	expect(readCookie(header, 'missing')).toBeNull()
	expect(readCookie(null, 'i18n_redirected')).toBeNull()
	// A name is matched whole, not as a prefix or a suffix.
	expect(readCookie('xi18n_redirected=de; i18n_redirectedx=es', 'i18n_redirected')).toBeNull()
})
