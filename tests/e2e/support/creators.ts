import { randomBytes } from 'node:crypto'
import { expect, test, type Locator, type Page } from '@playwright/test'
import type { Lang } from './accounts'
import { tr } from './i18n'

/**
 * Creators in the end-to-end tests. They sign in with Twitch at the loopback
 * OpenID stand-in (identity-providers.js), which links their Twitch channel,
 * as signing in with Twitch does for real.
 */

export const jsOn = () => test.info().project.use.javaScriptEnabled !== false

/** A fresh Twitch login (the stand-in takes a-z 0-9 _, up to 25): also a valid channel and username. */
export function twitchLogin(tag: string) {
	return `${tag}_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
}

/** Signs in with Twitch as a new account, chooses the username and accepts the terms: a creator of twitch/{login}. */
export async function twitchCreator(page: Page, lang: Lang, tag: string) {
	const login = twitchLogin(tag)
	await page.goto(`/${lang}/login`)
	await page.getByRole('main').getByRole('button', { name: tr(lang, 'auth.continue-with-twitch') }).click()
	await expect(page.getByRole('heading', { name: 'Sign in to Twitch' })).toBeVisible()
	await page.getByLabel('Username').fill(login)
	await page.getByLabel('Password').fill('provider password')
	await page.getByRole('button', { name: 'Sign in', exact: true }).click()
	await page.getByRole('button', { name: 'Allow' }).click()
	await expect(page).toHaveURL(new RegExp(`/${lang}/confirm\\?`))
	await page.goto(`/${lang}`)
	const dialog = page.getByRole('dialog')
	await dialog.getByLabel(tr(lang, 'account.username')).fill(login)
	await dialog.getByRole('button', { name: tr(lang, 'account.complete-submit') }).click()
	await dialog.getByRole('button', { name: tr(lang, 'account.terms-accept') }).click()
	await expect(page.getByRole('dialog')).toHaveCount(0)
	return login
}

/** The start-session form: the dialog with JavaScript, the page without. */
export async function openStartForm(page: Page, lang: Lang): Promise<Locator> {
	await page.goto(`/${lang}`)
	const cta = page.getByRole('region', { name: tr(lang, 'home.cta-title') })
	if (jsOn()) {
		await cta.getByRole('button', { name: tr(lang, 'sessions.start') }).click()
		const dialog = page.getByRole('dialog', { name: tr(lang, 'sessions.start-title') })
		await expect(dialog).toBeVisible()
		return dialog
	}
	await cta.getByRole('link', { name: tr(lang, 'sessions.start') }).click()
	await expect(page).toHaveURL(`/${lang}/start-session`)
	return page.getByRole('main')
}

/** The number field called `label`: React Aria's text box with JavaScript, a spin button without. */
export function numberInput(scope: Locator, lang: Lang, key: string) {
	return scope.getByRole(jsOn() ? 'textbox' : 'spinbutton', { name: tr(lang, key), exact: true })
}


/** A creator starts a live session with the given settings (the agreement accepted on the way) and lands on its page; returns its id. */
export async function startLiveSession(page: Page, lang: Lang, title: string, settings: Partial<Record<'sessions.max-dares' | 'sessions.max-free-dares' | 'sessions.min-boost' | 'sessions.voting-duration', string>>) {
	const form = await openStartForm(page, lang)
	await form.getByLabel(tr(lang, 'sessions.title'), { exact: true }).fill(title)
	for (const [key, value] of Object.entries(settings)) await numberInput(form, lang, key).fill(value)
	await form.getByRole('button', { name: tr(lang, 'sessions.submit') }).click()
	if (jsOn()) {
		await form.getByRole('button', { name: tr(lang, 'sessions.agreement-accept') }).click()
	} else {
		await form.getByLabel(tr(lang, 'sessions.agreement-checkbox')).check()
		await form.getByRole('button', { name: tr(lang, 'sessions.submit') }).click()
	}
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}
