import { expect, test } from './support/test'
import { tr } from './support/i18n'

/**
 * The head after a client-side navigation: React Router replaces the
 * server's tags, which only a browser running the app shows. What the server
 * sends (canonical, alternates, share cards, robots.txt, the sitemap) is
 * tested over HTTP in tests/http/seo.test.ts.
 */
test('after a client-side navigation the head describes the new page only', async ({ page, baseURL }) => {
	await page.goto('/en/terms')
	await page.getByRole('contentinfo').getByRole('link', { name: tr('en', 'footer.privacy') }).click()
	await expect(page).toHaveURL('/en/privacy')
	const h = page.locator('head')
	await expect(h.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/en/privacy`)
	await expect(h.locator('link[rel="canonical"]')).toHaveCount(1)
	await expect(h.locator('meta[name="description"]')).toHaveCount(1)
	await expect(h.locator('link[rel="alternate"][hreflang="de"]')).toHaveAttribute('href', `${baseURL}/de/privacy`)
	await expect(h.locator('link[rel="alternate"]')).toHaveCount(5)
})
