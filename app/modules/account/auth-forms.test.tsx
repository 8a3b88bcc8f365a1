// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { createRoutesStub } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import { testI18n, Translated } from '#tests/support/components'
import { SignInMethods } from './auth-forms'

/**
 * Which sign-in methods the form offers, by the providers the deployment has
 * configured (the root loader's oauthProviders). "Other login methods" is
 * other than Twitch: without Twitch the e-mail form is the way in and shows
 * as such, with no heading to open first.
 */
const i18n = await testI18n()
const t = (key: string) => i18n.t(key)

afterEach(cleanup)

async function renderSignIn(oauthProviders: string[]) {
	const Stub = createRoutesStub([
		{
			id: 'root',
			path: '/',
			loader: () => ({ oauthProviders }),
			HydrateFallback: () => null,
			children: [{ path: 'en/login', Component: () => <SignInMethods lang="en" redirectTo="/en" actionData={undefined} /> }],
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/login']} />
		</Translated>,
	)
	await screen.findByLabelText(t('auth.email'))
}

test('e-mail only (no Google, no Twitch): the form itself, no "Other login methods" to open', async () => {
	await renderSignIn([])
	expect(screen.queryByText(t('auth.other-methods'))).toBeNull()
	expect(document.querySelector('details')).toBeNull()
	expect(screen.getByLabelText(t('auth.password'))).toBeTruthy()
	expect(screen.getByRole('button', { name: t('auth.sign-in') })).toBeTruthy()
})

test('Google without Twitch: the form and the Google button, still no "other" heading', async () => {
	await renderSignIn(['google'])
	expect(screen.queryByText(t('auth.other-methods'))).toBeNull()
	expect(screen.getByRole('button', { name: t('auth.continue-with-google') })).toBeTruthy()
	expect(screen.queryByRole('button', { name: t('auth.continue-with-twitch') })).toBeNull()
})

test('with Twitch: Twitch first, the e-mail form and Google under "Other login methods", closed', async () => {
	await renderSignIn(['twitch', 'google'])
	expect(screen.getByRole('button', { name: t('auth.continue-with-twitch') })).toBeTruthy()
	const details = screen.getByText(t('auth.other-methods')).closest('details')!
	expect(details.open).toBe(false)
	expect(details.contains(screen.getByLabelText(t('auth.email')))).toBe(true)
	expect(details.contains(screen.getByRole('button', { name: t('auth.continue-with-google') }))).toBe(true)
})
