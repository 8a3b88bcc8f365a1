import { expect, test } from 'vitest'
import { LEGAL_DOCUMENTS, loadLegalLibrary } from '#app/modules/legal/documents.server'
import { documentTitle, tr } from '#tests/e2e/support/i18n'
import { describeEachServer, Visitor } from './support'

/** The legal pages as served: content/legal's documents in the page's language (docs/decisions/021). */
const library = loadLegalLibrary()
const TITLES = {
	terms: 'pages.terms.title',
	privacy: 'pages.privacy.title',
	imprint: 'pages.imprint.title',
	'creator-agreement': 'pages.creator-agreement.title',
} as const

describeEachServer('legal pages', (server) => {
	for (const lang of ['en', 'de', 'tr'] as const) {
		test(`${lang}: each document with its title, version, date, sections and the note for the operator`, async () => {
			const visitor = new Visitor(server)
			for (const doc of LEGAL_DOCUMENTS) {
				const page = await visitor.page(`/${lang}/${doc}`)
				const { version, updated, body } = library[doc][lang]
				expect(page.status, doc).toBe(200)
				expect(page.document.title, doc).toBe(documentTitle(lang, TITLES[doc]))
				expect(page.screen.getByRole('heading', { level: 1 }).textContent, doc).toBe(tr(lang, TITLES[doc]))
				expect(page.document.querySelector('.legal__version')?.textContent, doc).toContain(tr(lang, 'legal.version', { version }))
				expect(page.document.querySelector(`time[datetime="${updated}"]`), doc).not.toBeNull()
				const firstSection = /^## (.+)$/m.exec(body)![1]!
				expect(page.screen.getByRole('heading', { level: 2, name: firstSection }), doc).toBeTruthy()
				// The note that asks the operator to review the default text is at the top.
				expect(page.document.querySelector('.legal__body > blockquote:first-child'), doc).not.toBeNull()
			}
		})

		test(`${lang}: the table of contents links to every section of the terms`, async () => {
			const page = await new Visitor(server).page(`/${lang}/terms`)
			const contents = page.screen.getByRole('navigation', { name: tr(lang, 'legal.contents') })
			const links = [...contents.querySelectorAll('a')]
			expect(links.length).toBeGreaterThanOrEqual(6)
			for (const link of links) {
				const target = page.document.getElementById(link.getAttribute('href')!.slice(1))
				expect(target?.tagName, link.textContent!).toBe('H2')
				expect(target?.textContent).toBe(link.textContent)
			}
		})
	}

	test('the imprint names the operator from the configuration', async () => {
		const page = await new Visitor(server).page('/de/imprint')
		expect(page.screen.getAllByText('Dareboost Test Operator GmbH').length).toBeGreaterThan(0)
		// The written \n in OPERATOR_ADDRESS is a line break.
		expect(page.document.querySelector('address')?.textContent).toBe('Teststraße 1\n10115 Berlin')
		expect(page.screen.getByRole('link', { name: 'legal@dareboost.test' }).getAttribute('href')).toBe('mailto:legal@dareboost.test')
	})

	test('links inside a document stay in its language', async () => {
		const page = await new Visitor(server).page('/de/terms')
		const body = page.document.querySelector('.legal__body') as HTMLElement
		const links = [...body.querySelectorAll('a')].filter((a) => a.textContent === 'Datenschutzerklärung')
		expect(links.length).toBeGreaterThan(0)
		for (const link of links) expect(link.getAttribute('href')).toBe('/de/privacy')
		for (const link of body.querySelectorAll('a[href^="/"]')) expect(link.getAttribute('href'), link.textContent!).toMatch(/^\/de\//)
	})

	test('the sign-up form’s terms line links to the terms and the privacy policy in a new tab', async () => {
		const page = await new Visitor(server).page('/es/register')
		const line = page.document.querySelector('.terms-disclaimer') as HTMLElement
		expect(line.textContent).toContain(tr('es', 'terms.disclaimer-1-submit'))
		for (const [key, path] of [
			['terms.link-1', '/es/terms'],
			['terms.link-2', '/es/privacy'],
		] as const) {
			// The link's name is its text and a hidden "(opens in a new tab)".
			const link = [...line.querySelectorAll('a')].find((a) => a.textContent!.startsWith(tr('es', key)))!
			expect(link.getAttribute('href')).toBe(path)
			expect(link.getAttribute('target')).toBe('_blank')
			expect(link.getAttribute('rel')).toMatch(/noopener/)
		}
	})
})
