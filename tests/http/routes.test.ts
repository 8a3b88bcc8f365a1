import { expect, test } from 'vitest'
import { DEMO_SESSIONS } from '#app/db/seed.server'
import { documentTitle, LANGS, tr } from '#tests/e2e/support/i18n'
import { PUBLIC_PAGES } from '#tests/e2e/support/pages'
import { describeEachServer, Visitor } from './support'

/** Every route in every language, the demo data they show, and what a visitor's query may not change. */
const live = DEMO_SESSIONS.miaLive
const ended = DEMO_SESSIONS.luciaEnded

describeEachServer('every route in every language', (server) => {
	for (const lang of LANGS) {
		test(`${lang}: each page answers 200 with its translated title, in the layout`, async () => {
			for (const { path, title } of PUBLIC_PAGES) {
				const page = await new Visitor(server).page(`/${lang}${path}`)
				expect(page.status, `/${lang}${path}`).toBe(200)
				expect(page.document.title, `/${lang}${path}`).toBe(typeof title === 'string' ? documentTitle(lang, title) : `${title(lang)} · ${tr(lang, 'app.name')}`)
				expect(page.document.documentElement.getAttribute('lang')).toBe(lang)
			}
			const terms = await new Visitor(server).page(`/${lang}/terms`)
			expect(terms.screen.getByRole('heading', { level: 1 }).textContent).toBe(tr(lang, 'pages.terms.title'))
			expect(terms.screen.getByRole('navigation', { name: tr(lang, 'footer.legal') })).toBeTruthy()
		})
	}

	test('a channel that is no longer live shows its last session with a notice', async () => {
		const page = await new Visitor(server).page(`/es/${ended.platform}/${ended.channel}`)
		expect(page.screen.getAllByRole('status').some((status: HTMLElement) => status.textContent === tr('es', 'sessions.not-live'))).toBe(true)
		expect(page.screen.getByRole('heading', { level: 1 }).textContent).toBe(ended.title)
	})

	test('home lists the live demo sessions, most active first with their totals, and searches by channel', async () => {
		const visitor = new Visitor(server)
		const home = await visitor.page('/en')
		// The demo's busiest session (six dares, the most coins in play) comes first.
		const first = home.document.querySelector('.session-card')!
		expect(first.querySelector('a')?.textContent).toBe(live.title)
		expect(first.textContent).toMatch(/Dares: 6 · ◎ \d+ in play/)
		const search = home.screen.getByRole('searchbox', { name: tr('en', 'home.search-label') }).closest('form')!
		const none = await visitor.submit(home, search, { q: 'no-such-channel-xyz' })
		expect(none.screen.getByText(tr('en', 'home.no-results', { query: 'no-such-channel-xyz' }))).toBeTruthy()
		const found = await visitor.submit(home, search, { q: live.channel.slice(0, 4) })
		expect(found.screen.getByRole('link', { name: live.title }).getAttribute('href')).toBe(`/en/${live.platform}/${live.channel}`)
		const session = await visitor.page(`/en/${live.platform}/${live.channel}`)
		expect(session.screen.getByRole('heading', { level: 1 }).textContent).toBe(live.title)
	})

	test('the shop ignores a returnPath that leaves the site', async () => {
		for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
			const page = await new Visitor(server).page(`/en/shop?returnPath=${encodeURIComponent(evil)}`)
			// Every link stays on this site (the language links carry the query, encoded).
			for (const href of page.hrefs()) {
				expect(href, evil).toMatch(/^(#|\/(?![/\\]))/)
				expect(decodeURIComponent(href.split('?')[0]!), evil).not.toContain('evil.example')
			}
			expect(page.html).not.toContain(tr('en', 'shop.back'))
		}
		const page = await new Visitor(server).page('/en/shop?returnPath=%2Fen%2Fsession%2Fabc%3Fx%3D1')
		expect(page.hrefs()).toContain('/en/session/abc?x=1')
		expect(page.html).toContain(tr('en', 'shop.back'))
	})

	test('translations are served per locale and cached for a day', async () => {
		const visitor = new Visitor(server)
		for (const lang of LANGS) {
			const response = await visitor.fetch(`/_i18n/${lang}/messages.json`)
			expect(response.status).toBe(200)
			expect(response.headers.get('cache-control')).toBe('public, max-age=86400')
			const body = (await response.json()) as { nav: { shop: string } }
			expect(body.nav.shop).toBe(tr(lang, 'nav.shop'))
		}
		expect((await visitor.fetch('/_i18n/xx/messages.json')).status).toBe(404)
	})
})
