import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { DEMO_OVERLAY_KEY, DEMO_SESSIONS } from '../../app/db/seed.server'
import { readyAccount } from './support/accounts'
import { UNDECIDED_STORAGE_STATE } from './support/consent'
import { LANGS, tr } from './support/i18n'

/**
 * axe-core on every page in every language, with and without a signed-in
 * user: no serious or critical violation of WCAG 2.1 A and AA. The cookie
 * banner and its settings are checked too, and so is the banner a browser
 * without JavaScript gets. axe runs as a script in the page, so the
 * projects without JavaScript have nothing to run it in: the server's
 * no-JavaScript banner is checked here by serving its HTML with the
 * <noscript> unwrapped. It runs once, on PGlite with JavaScript
 * (playwright.config.ts, PAGE_ONLY).
 */
const live = DEMO_SESSIONS.miaLive
const ended = DEMO_SESSIONS.luciaEnded

const PUBLIC_PAGES = [
	'',
	'/shop',
	'/terms',
	'/privacy',
	'/imprint',
	'/creator-agreement',
	'/confirm?confirmed=1',
	'/register',
	'/password-reset',
	'/password-reset?changePassword=true',
	'/login',
	`/session/${live.id}`,
	`/${live.platform}/${live.channel}`,
	`/${ended.platform}/${ended.channel}`,
	`/overlay/${live.id}?key=${DEMO_OVERLAY_KEY}`,
	'/no-such-page',
]

// The session page signed in shows the dares' forms (create, boost, vote).
const SIGNED_IN_PAGES = ['/settings', '/shop', '/start-session', `/session/${live.id}`]

const BLOCKING = new Set(['serious', 'critical'])

/** The serious and critical violations on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
	const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
	return results.violations
		.filter((v) => BLOCKING.has(v.impact ?? ''))
		.flatMap((v) => v.nodes.map((n) => `${page.url()} ${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n').join(' ') ?? ''}`))
}

async function visit(page: Page, path: string): Promise<void> {
	const response = await page.goto(path)
	expect(response?.status(), path).toBeLessThan(path.endsWith('no-such-page') ? 500 : 400)
	await page.waitForLoadState('networkidle')
}

for (const lang of LANGS) {
	test(`${lang}: every public page`, async ({ page }) => {
		const found: string[] = []
		for (const path of PUBLIC_PAGES) {
			await visit(page, `/${lang}${path}`)
			found.push(...(await violations(page)))
		}
		expect(found).toEqual([])
	})
}

test('signed in: settings, shop and start-session in every language', async ({ page }) => {
	test.setTimeout(120_000)
	await readyAccount(page, 'en', 'axe')
	const found: string[] = []
	for (const lang of LANGS) {
		for (const path of SIGNED_IN_PAGES) {
			await visit(page, `/${lang}${path}`)
			found.push(...(await violations(page)))
		}
	}
	expect(found).toEqual([])
})

test.describe('the cookie banner', () => {
	test.use({ storageState: UNDECIDED_STORAGE_STATE })

	for (const lang of LANGS) {
		test(`${lang}: the banner and the settings`, async ({ page }) => {
			await visit(page, `/${lang}/terms`)
			const found: string[] = []
			await expect(page.getByRole('dialog', { name: tr(lang, 'consent.title') })).toBeVisible()
			// The modals fade in; axe checks colours once they are opaque.
			await page.waitForTimeout(500)
			found.push(...(await violations(page)))
			await page.getByRole('button', { name: tr(lang, 'consent.choose') }).click()
			await expect(page.getByRole('dialog', { name: tr(lang, 'consent.settings-title') })).toBeVisible()
			await page.waitForTimeout(500)
			found.push(...(await violations(page)))
			expect(found).toEqual([])
		})

		test(`${lang}: the banner without JavaScript, its settings open`, async ({ page }) => {
			const path = `/${lang}/imprint?cookie-settings=1`
			const html = await (await page.request.get(path)).text()
			// What a browser without scripts renders: the <noscript> content, no scripts.
			const noScript = html.replace(/<\/?noscript>/g, '').replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '')
			await page.route(`**${path}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: noScript }))
			await page.goto(path)
			await expect(page.getByRole('region', { name: tr(lang, 'consent.title') })).toBeVisible()
			await expect(page.getByRole('checkbox', { name: new RegExp(tr(lang, 'consent.entries.twitch.name')) })).toBeVisible()
			expect(await violations(page)).toEqual([])
		})
	}
})
