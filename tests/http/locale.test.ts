import { expect, test } from 'vitest'
import { documentTitle, tr } from '#tests/e2e/support/i18n'
import { describeEachServer, Visitor } from './support'

/**
 * The language at `/` and the switcher's links (docs/decisions/004): the
 * i18n_redirected cookie, then the browser's languages, then English. The
 * switcher as a person uses it with JavaScript is in tests/e2e/locale.spec.ts.
 */
describeEachServer('language', (server) => {
	test('the switcher links keep the page and the query; reading a page remembers its language for a year', async () => {
		const visitor = new Visitor(server)
		const terms = await visitor.page('/en/terms')
		// The header's switcher and the phone menu's: both keep the page.
		for (const link of terms.screen.getAllByRole('link', { name: 'Deutsch' })) expect(link.getAttribute('href')).toBe('/de/terms')
		const search = await visitor.page('/en?q=mia')
		for (const link of search.screen.getAllByRole('link', { name: 'Türkçe' })) expect(link.getAttribute('href')).toBe('/tr?q=mia')
		const german = await visitor.fetch('/de/terms')
		expect(german.headers.getSetCookie().find((line) => line.startsWith('i18n_redirected='))).toMatch(/^i18n_redirected=de;.*Max-Age=31536000/)
		const root = await visitor.fetch('/')
		expect(root.headers.get('location')).toBe('/de')
	})

	test('Accept-Language picks the language; the cookie wins over it', async () => {
		const spanish = new Visitor(server, { 'accept-language': 'es-ES,es;q=0.9' })
		const page = await spanish.page('/')
		expect(page.url).toBe(`${server.url}/es`)
		expect(page.document.title).toBe(documentTitle('es', 'home.title'))
		spanish.cookies.set('i18n_redirected', 'tr')
		expect((await spanish.fetch('/')).headers.get('location')).toBe('/tr')
	})

	test('q-values order the browser languages; unsupported ones fall back to English', async () => {
		const cases: Array<[string, string]> = [
			['fr-FR, de;q=0.8, es;q=0.9', '/es'],
			['tr-TR,tr;q=0.9,en;q=0.5', '/tr'],
			['fr, ja', '/en'],
		]
		for (const [header, expected] of cases) {
			const response = await new Visitor(server, { 'accept-language': header }).fetch('/')
			expect(response.status, header).toBe(302)
			expect(response.headers.get('location'), header).toBe(expected)
		}
	})

	test('a page answers in the language of its prefix whatever the browser prefers', async () => {
		const page = await new Visitor(server, { 'accept-language': 'tr' }).page('/de/terms')
		expect(page.document.title).toBe(documentTitle('de', 'pages.terms.title'))
		expect(page.screen.getByRole('heading', { level: 1 }).textContent).toBe(tr('de', 'pages.terms.title'))
	})
})
