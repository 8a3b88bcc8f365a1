import { randomBytes } from 'node:crypto'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { completeAccount, type Lang } from './accounts'
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

/**
 * A new account signed in with Twitch, its username chosen and the terms
 * accepted: a creator of twitch/{login}, on home. Set up without rendering a
 * page: the context's own request client posts the sign-in button's form,
 * follows the stand-in's login and consent forms and comes back through the
 * callback, as the browser would (the same journey in the browser is
 * oauth.spec.ts's).
 */
export async function twitchCreator(page: Page, lang: Lang, tag: string) {
	const login = twitchLogin(tag)
	const origin = new URL(test.info().project.use.baseURL!).origin
	let response = await page.request.post(`/${lang}/login`, { form: { intent: 'oauth', provider: 'twitch', redirectTo: `/${lang}` }, headers: { origin } })
	const answers: Array<Record<string, string>> = [{ decision: 'sign-in', username: login, password: 'provider password' }, { decision: 'allow' }]
	for (const answer of answers) {
		const action = /<form method="post" action="([^"]+)"/.exec(await response.text())?.[1]
		expect(action, `the stand-in's form at ${response.url()}`).toBeTruthy()
		response = await page.request.post(new URL(action!.replace(/&amp;/g, '&'), response.url()).toString(), { form: answer })
	}
	expect(response.url()).toMatch(new RegExp(`/${lang}/confirm\\?`))
	await completeAccount(page, lang, login)
	await page.goto(`/${lang}`)
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


/** A creator starts a live session with the given settings (the agreement, when owed, ticked in the form) and lands on its page. */
export async function startLiveSession(page: Page, lang: Lang, title: string, settings: Partial<Record<'sessions.max-dares' | 'sessions.max-free-dares' | 'sessions.min-boost' | 'sessions.voting-duration', string>>) {
	const form = await openStartForm(page, lang)
	await form.getByLabel(tr(lang, 'sessions.title'), { exact: true }).fill(title)
	for (const [key, value] of Object.entries(settings)) await numberInput(form, lang, key).fill(value)
	// The form shows the box from its first view to a creator who owes the agreement (a new one always does).
	const agreement = form.getByRole('checkbox', { name: tr(lang, 'sessions.agreement-checkbox') })
	if (await agreement.count()) await agreement.check()
	await form.getByRole('button', { name: tr(lang, 'sessions.submit') }).click()
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}
