import { expect, type Page } from '@playwright/test'
import { tr, type LANGS } from './i18n'
import { latestMailLink, uniqueEmail } from './mailbox'

export type Lang = (typeof LANGS)[number]

export async function openPasswordForm(page: Page, lang: Lang) {
	const details = page.locator('details.other-methods')
	if ((await details.getAttribute('open')) === null) await page.getByText(tr(lang, 'auth.other-methods')).click()
}

export async function signIn(page: Page, lang: Lang, email: string, password: string) {
	if (!page.url().includes(`/${lang}/login`)) await page.goto(`/${lang}/login`)
	await openPasswordForm(page, lang)
	await page.getByLabel(tr(lang, 'auth.email')).fill(email)
	await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill(password)
	await page.getByRole('button', { name: tr(lang, 'auth.sign-in') }).click()
}

/** Registers through the page, follows the mail's link and presses its one button (which signs the account in). */
export async function signUpAndConfirm(page: Page, lang: Lang, email: string, password: string) {
	await page.goto(`/${lang}/register`)
	await page.getByLabel(tr(lang, 'auth.email')).fill(email)
	await page.getByLabel(tr(lang, 'auth.password'), { exact: true }).fill(password)
	await page.getByRole('button', { name: tr(lang, 'auth.sign-up') }).click()
	const panel = page.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })
	await expect(panel).toBeVisible()
	await expect(panel.getByText(email)).toBeVisible()
	const link = await latestMailLink(page.request, email, '/confirm')
	await page.goto(link)
	// The link's page consumes nothing until its button is pressed (mail scanners fetch links).
	await expect(page.getByRole('heading', { name: tr(lang, 'auth.email-confirm-pending-title') })).toBeVisible()
	await page.getByRole('button', { name: tr(lang, 'auth.email-confirm-button') }).click()
	await expect(page.getByRole('heading', { name: tr(lang, 'auth.email-confirmed-title') })).toBeVisible()
	// Following the link signs the new account in.
	await expect(page.getByRole('button', { name: tr(lang, 'auth.sign-out') })).toBeVisible()
	expect(page.url()).not.toContain('token=')
}

/** A confirmed, signed-in account with a username and the terms accepted. */
export async function readyAccount(page: Page, lang: Lang, tag: string) {
	const email = uniqueEmail(tag)
	const password = `pw-${tag}-123`
	await signUpAndConfirm(page, lang, email, password)
	await page.goto(`/${lang}`)
	const username = `${tag.replace(/[^a-z0-9]/g, '')}_${Date.now().toString(36)}`.slice(0, 30)
	await page.getByRole('dialog').getByLabel(tr(lang, 'account.username')).fill(username)
	await page.getByRole('dialog').getByRole('button', { name: tr(lang, 'account.complete-submit') }).click()
	await page.getByRole('dialog').getByRole('button', { name: tr(lang, 'account.terms-accept') }).click()
	await expect(page.getByRole('dialog')).toHaveCount(0)
	return { email, password, username }
}
