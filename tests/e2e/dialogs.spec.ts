import { expect, test, type Locator, type Page } from './support/test'
import { DEMO_SESSIONS } from '../../app/db/seed.server'
import { UNDECIDED_STORAGE_STATE } from './support/consent'
import { twitchCreator } from './support/creators'
import { tr } from './support/i18n'

/**
 * Every dialog works with the keyboard alone (issue 12), in a real browser:
 * opened with Enter from its trigger, focus moves into it and Tab keeps it
 * there, Escape closes it and focus returns to the trigger. Where focus goes
 * is the browser's, so it is tested here; that each dialog is opened as a
 * modal, named, closed and its trigger kept is also tested per component
 * (auth-dialog.test.tsx, start-session-button.test.tsx,
 * cookie-banner.test.tsx, which also holds the focus's return when the
 * cookie settings load late). Without JavaScript these are pages (their
 * journeys run in both modes elsewhere), so only the projects with
 * JavaScript run this file.
 */
test.describe.configure({ mode: 'parallel' })

/** Where focus is: in the dialog, on the page behind it, or nowhere in the page (the browser's own controls, where a modal <dialog> lets Tab pass). */
async function focusIn(dialog: Locator): Promise<'dialog' | 'page' | 'browser'> {
	return dialog.evaluate((node) => {
		const active = document.activeElement
		if (active && node.contains(active)) return 'dialog'
		return !active || active === document.body ? 'browser' : 'page'
	})
}

async function keyboardRoundTrip(page: Page, trigger: Locator, dialog: Locator) {
	await trigger.focus()
	await page.keyboard.press('Enter')
	await expect(dialog).toBeVisible()
	await expect.poll(() => focusIn(dialog)).toBe('dialog')
	// More Tabs than the dialog has controls, both ways: focus never reaches
	// the page behind it, and comes back into the dialog after passing the
	// browser's own controls (as a modal <dialog> does by design).
	for (const key of ['Tab', 'Shift+Tab']) {
		const seen: string[] = []
		for (let i = 0; i < 25; i++) {
			await page.keyboard.press(key)
			seen.push(await focusIn(dialog))
		}
		expect(seen, `${key} reached the page behind the dialog`).not.toContain('page')
		expect(seen.filter((where) => where === 'dialog').length).toBeGreaterThan(seen.length / 2)
		expect(seen.lastIndexOf('dialog')).toBeGreaterThan(seen.indexOf('browser'))
	}
	if ((await focusIn(dialog)) !== 'dialog') await page.keyboard.press('Tab')
	await page.keyboard.press('Escape')
	await expect(dialog).toBeHidden()
	await expect(trigger).toBeFocused()
}

test.describe('dialogs with the keyboard alone', { tag: '@js-only' }, () => {
	test('en: the sign-in dialog from the header', async ({ page }) => {
		await page.goto('/en/terms')
		await page.waitForLoadState('networkidle')
		await keyboardRoundTrip(
			page,
			page.getByRole('link', { name: tr('en', 'nav.sign-in') }),
			page.getByRole('dialog', { name: tr('en', 'pages.login.title') }),
		)
	})

	test('de: the sign-in dialog a visitor gets on a session page', async ({ page }) => {
		const live = DEMO_SESSIONS.miaLive
		await page.goto(`/de/${live.platform}/${live.channel}`)
		await page.waitForLoadState('networkidle')
		await keyboardRoundTrip(
			page,
			page.getByRole('button', { name: tr('de', 'sessions.join-sign-in') }),
			page.getByRole('dialog', { name: tr('de', 'pages.login.title') }),
		)
	})

	test.describe('before the cookie choice', () => {
		test.use({ storageState: UNDECIDED_STORAGE_STATE })
		test('de: the cookie settings from the footer', async ({ page }) => {
			await page.goto('/de/imprint')
			await page.waitForLoadState('networkidle')
			// The banner is part of the page (there with the first paint) and
			// leaves the focus where it is; the footer's button opens the settings.
			const banner = page.getByRole('region', { name: tr('de', 'consent.title') })
			await expect(banner).toBeVisible()
			expect(await banner.evaluate((node) => node.contains(document.activeElement))).toBe(false)
			await keyboardRoundTrip(
				page,
				page.getByRole('contentinfo').getByRole('button', { name: tr('de', 'consent.settings-link') }),
				page.getByRole('dialog', { name: tr('de', 'consent.settings-title') }),
			)
		})
	})

	test('en: the start-session dialog of a creator', async ({ page }) => {
		await twitchCreator(page, 'en', 'kbd')
		await page.goto('/en')
		await page.waitForLoadState('networkidle')
		const cta = page.getByRole('region', { name: tr('en', 'home.cta-title') })
		await keyboardRoundTrip(
			page,
			cta.getByRole('button', { name: tr('en', 'sessions.start') }),
			page.getByRole('dialog', { name: tr('en', 'sessions.start-title') }),
		)
	})
})
