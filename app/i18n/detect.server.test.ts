import { describe, expect, test } from 'vitest'
import { detectLocale, localeCookieHeader, pageLocale, parseAcceptLanguage, readLocaleCookie } from './detect.server'
import { switchLocalePath } from './locales'

const req = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers })

describe('parseAcceptLanguage', () => {
	test('orders by q-value, keeps header order for ties, drops q=0 and *', () => {
		expect(parseAcceptLanguage('fr;q=0.5, de, es;q=0.9, tr;q=0, *;q=0.1, en')).toEqual(['de', 'en', 'es', 'fr'])
	})
	test('tolerates garbage', () => {
		expect(parseAcceptLanguage(null)).toEqual([])
		expect(parseAcceptLanguage(';;,,q=abc')).toEqual([])
	})
})

describe('detectLocale: cookie, then browser, then domain, then prefix', () => {
	test('the i18n_redirected cookie wins', () => {
		expect(detectLocale(req('http://x/', { cookie: 'a=1; i18n_redirected=tr', 'accept-language': 'es' }))).toBe('tr')
	})
	test('an unsupported cookie value is ignored', () => {
		expect(detectLocale(req('http://x/', { cookie: 'i18n_redirected=fr', 'accept-language': 'es' }))).toBe('es')
	})
	test('browser languages, first supported one', () => {
		expect(detectLocale(req('http://x/', { 'accept-language': 'fr-CH, de-AT;q=0.8' }))).toBe('de')
	})
	test('then the operator domain map', () => {
		expect(detectLocale(req('http://beispiel.de/', { 'accept-language': 'fr' }), { 'beispiel.de': 'de' })).toBe('de')
	})
	test('then the route prefix, then English', () => {
		expect(detectLocale(req('http://x/es/terms'))).toBe('es')
		expect(detectLocale(req('http://x/whatever'))).toBe('en')
	})
	test('a page with a prefix is rendered in that language whatever the cookie says', () => {
		expect(pageLocale(req('http://x/tr/terms', { cookie: 'i18n_redirected=de' }))).toBe('tr')
		expect(pageLocale(req('http://x/nope', { cookie: 'i18n_redirected=de' }))).toBe('de')
	})
})

test('the locale cookie names a language, or is none', () => {
	const withCookie = (cookie: string) => new Request('http://localhost/', { headers: { cookie } })
	expect(readLocaleCookie(withCookie('a=1; i18n_redirected=tr; b=%E0'))).toBe('tr')
	expect(readLocaleCookie(withCookie('i18n_redirected=xx'))).toBeNull()
	expect(readLocaleCookie(withCookie('i18n_redirected=%E0%A4%A'))).toBeNull()
	expect(readLocaleCookie(new Request('http://localhost/'))).toBeNull()
})

test('the locale cookie lasts 365 days', () => {
	expect(localeCookieHeader('de', false)).toBe('i18n_redirected=de; Path=/; Max-Age=31536000; SameSite=Lax')
	expect(localeCookieHeader('de', true)).toContain('; Secure')
})

test('switchLocalePath keeps the rest of the path', () => {
	expect(switchLocalePath('/de/session/abc', 'tr')).toBe('/tr/session/abc')
	expect(switchLocalePath('/de', 'es')).toBe('/es')
	expect(switchLocalePath('/', 'es')).toBe('/es')
	expect(switchLocalePath('/foo', 'es')).toBe('/es/foo')
})
