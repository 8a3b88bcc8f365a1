import { expect, test } from '@playwright/test'
import { LEGAL_DOCUMENTS, loadLegalLibrary } from '../../app/modules/legal/documents.server'
import { documentTitle, tr } from './support/i18n'

const library = loadLegalLibrary()
const TITLES = {
	terms: 'pages.terms.title',
	privacy: 'pages.privacy.title',
	imprint: 'pages.imprint.title',
	'creator-agreement': 'pages.creator-agreement.title',
} as const

/** The first second-level heading of the document's Markdown, as the page shows it. */
function firstSection(doc: (typeof LEGAL_DOCUMENTS)[number], lang: 'en' | 'de' | 'tr'): string {
	return /^## (.+)$/m.exec(library[doc][lang].body)![1]!
}

for (const lang of ['en', 'de', 'tr'] as const) {
	test.describe(`legal pages in ${lang}`, () => {
		for (const doc of LEGAL_DOCUMENTS) {
			test(`${doc}: renders its document with title, version, date and sections`, async ({ page }) => {
				const response = await page.goto(`/${lang}/${doc}`)
				expect(response?.status()).toBe(200)
				await expect(page).toHaveTitle(documentTitle(lang, TITLES[doc]))
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lang, TITLES[doc]))
				const { version } = library[doc][lang]
				await expect(page.getByText(tr(lang, 'legal.version', { version }))).toBeVisible()
				await expect(page.locator(`time[datetime="${library[doc][lang].updated}"]`)).toBeVisible()
				await expect(page.getByRole('heading', { level: 2, name: firstSection(doc, lang) })).toBeVisible()
				// The note that asks the operator to review the default text is at the top.
				await expect(page.locator('.legal__body blockquote').first()).toBeVisible()
			})
		}

		test('the table of contents leads to its section', async ({ page }) => {
			await page.goto(`/${lang}/terms`)
			const contents = page.getByRole('navigation', { name: tr(lang, 'legal.contents') })
			const fourth = contents.getByRole('link').nth(3)
			const name = (await fourth.textContent())!
			await fourth.click()
			await expect(page).toHaveURL(new RegExp(`/${lang}/terms#`))
			await expect(page.getByRole('heading', { level: 2, name })).toBeInViewport()
		})
	})
}

test('the imprint names the operator from the configuration', async ({ page }) => {
	await page.goto('/de/imprint')
	await expect(page.getByText('Dareboost Test Operator GmbH')).toBeVisible()
	// The written \n in OPERATOR_ADDRESS is a line break.
	await expect(page.locator('address')).toHaveText('Teststraße 1\n10115 Berlin')
	await expect(page.getByRole('link', { name: 'legal@dareboost.test' })).toHaveAttribute('href', 'mailto:legal@dareboost.test')
})

test('links inside a document stay in its language', async ({ page }) => {
	await page.goto('/de/terms')
	await page.locator('.legal__body').getByRole('link', { name: 'Datenschutzerklärung' }).first().click()
	await expect(page).toHaveURL('/de/privacy')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('de', 'pages.privacy.title'))
})

test('the sign-up form’s terms line links to the terms and the privacy policy in a new tab', async ({ page }) => {
	await page.goto('/es/register')
	const line = page.locator('.terms-disclaimer').first()
	await expect(line).toContainText(tr('es', 'terms.disclaimer-1-submit'))
	for (const [key, path] of [
		['terms.link-1', '/es/terms'],
		['terms.link-2', '/es/privacy'],
	] as const) {
		const link = line.getByRole('link', { name: tr('es', key) })
		await expect(link).toHaveAttribute('href', path)
		await expect(link).toHaveAttribute('target', '_blank')
		await expect(link).toHaveAttribute('rel', /noopener/)
	}
})
