import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { DEMO_SESSIONS } from '../../app/db/seed.server'
import { readyAccount } from './support/accounts'
import { UNDECIDED_STORAGE_STATE } from './support/consent'
import { LANGS, tr } from './support/i18n'

/**
 * axe-core on every page in every language, with and without JavaScript and
 * with and without a signed-in user: no serious or critical violation of
 * WCAG 2.1 A and AA. The cookie banner and its settings are checked too.
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
	`/overlay/${live.id}`,
	'/no-such-page',
]

const SIGNED_IN_PAGES = ['/settings', '/shop', '/start-session']

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
		test(`${lang}: the banner and the settings`, async ({ page }, testInfo) => {
			const javaScript = testInfo.project.use.javaScriptEnabled !== false
			await visit(page, `/${lang}/terms`)
			const found: string[] = []
			if (javaScript) {
				await expect(page.getByRole('dialog', { name: tr(lang, 'consent.title') })).toBeVisible()
				found.push(...(await violations(page)))
				await page.getByRole('button', { name: tr(lang, 'consent.choose') }).click()
				await expect(page.getByRole('dialog', { name: tr(lang, 'consent.settings-title') })).toBeVisible()
				// The modal fades in; axe checks colours once it is opaque.
				await page.waitForTimeout(500)
				found.push(...(await violations(page)))
			} else {
				await expect(page.getByRole('region', { name: tr(lang, 'consent.title') })).toBeVisible()
				await page.getByText(tr(lang, 'consent.choose')).click()
				found.push(...(await violations(page)))
			}
			expect(found).toEqual([])
		})
	}
})
