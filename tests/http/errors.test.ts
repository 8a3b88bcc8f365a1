import { expect, test } from 'vitest'
import { tr } from '#tests/e2e/support/i18n'
import { describeEachServer, Visitor } from './support'

/** 404s in the language of their prefix (docs/decisions/005), and forms posted from another site. */
describeEachServer('errors', (server) => {
	test('an invalid platform fails the route check: Page Not Found', async () => {
		const page = await new Visitor(server).page('/en/foo/bar')
		expect(page.status).toBe(404)
		expect(page.screen.getByText('Page Not Found: /en/foo/bar')).toBeTruthy()
		expect(page.screen.getByText(tr('en', 'error.status', { status: 404 }))).toBeTruthy()
	})

	test('an unknown language prefix: Page not found', async () => {
		const page = await new Visitor(server).page('/xx')
		expect(page.status).toBe(404)
		expect(page.screen.getByText('Page not found: /xx')).toBeTruthy()
	})

	test('unknown paths, in the language of their prefix, with a way back to that home', async () => {
		const page = await new Visitor(server).page('/de/gibt/es/nicht')
		expect(page.status).toBe(404)
		expect(page.screen.getByText(tr('de', 'error.not-found', { path: '/de/gibt/es/nicht' }))).toBeTruthy()
		expect(page.screen.getByRole('heading', { level: 1 }).textContent).toBe(tr('de', 'error.not-found-title'))
		const turkish = await new Visitor(server).page('/tr/yok')
		expect(turkish.screen.getByRole('link', { name: tr('tr', 'error.back-home') }).getAttribute('href')).toBe('/tr')
	})

	test('a valid platform with no such channel, and an unknown session id', async () => {
		for (const path of ['/en/twitch/nobody_streams_here', '/en/session/not-a-uuid', '/en/session/00000000-0000-4000-8000-000000000000']) {
			const page = await new Visitor(server).page(path)
			expect(page.status, path).toBe(404)
			expect(page.html).toContain(`Page not found: ${path}`)
		}
	})

	test('a form posted from another site is refused before any action runs', async () => {
		const visitor = new Visitor(server)
		const form = new URLSearchParams({ email: 'a@b.co', password: 'whatever' }).toString()
		const post = (path: string, headers: Record<string, string>) =>
			visitor.fetch(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: form })
		// A foreign Origin: React Router's own check refuses it (400).
		expect((await post('/en/login', { origin: 'https://evil.example' })).status).toBe(400)
		// No Origin but the browser says cross-site (or a foreign Referer): ours (403, translated).
		const crossSite: Array<Record<string, string>> = [{ 'sec-fetch-site': 'cross-site' }, { referer: 'https://evil.example/page' }]
		for (const headers of crossSite) {
			const response = await post('/de/login', headers)
			expect(response.status).toBe(403)
			expect(await response.text()).toContain(tr('de', 'error.cross-site'))
		}
	})
})
