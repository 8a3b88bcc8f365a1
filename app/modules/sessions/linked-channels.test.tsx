// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { createRoutesStub, Outlet } from 'react-router'
import { afterEach, expect, test } from 'vitest'
import type { ChannelPlatform } from '#app/modules/channels/platforms'
import { LinkedChannels } from './linked-channels'
import type { LinkedChannel } from './start-session-button'
import { testI18n, Translated } from '#tests/support/components'

/**
 * The settings' "Linked channels" offers only what this site can link
 * (docs/product.md §10.9): Twitch's channel comes from a Twitch sign-in, so
 * "Link my Twitch channel" is there only where Twitch sign-in is configured
 * (the root data's providers); otherwise Twitch joins the platforms the
 * operator links by hand.
 */

afterEach(cleanup)

const i18n = await testI18n('en')
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options)

function renderChannels({ providers, channels = [], connectable = [] }: { providers: string[]; channels?: LinkedChannel[]; connectable?: ChannelPlatform[] }) {
	const Stub = createRoutesStub([
		{
			id: 'root',
			path: '/',
			loader: () => ({ oauthProviders: providers }),
			Component: Outlet,
			children: [{ path: 'en/settings/channels', Component: () => <LinkedChannels channels={channels} connectable={connectable} lang="en" /> }],
		},
	])
	render(
		<Translated i18n={i18n}>
			<Stub initialEntries={['/en/settings/channels']} />
		</Translated>,
	)
}

test('with Twitch sign-in configured, a creator without a Twitch channel may link the one they sign in with', async () => {
	renderChannels({ providers: ['google', 'twitch'], connectable: ['youtube', 'kick'] })
	const section = await screen.findByRole('region', { name: t('channels.title') })
	expect(within(section).getByRole('button', { name: t('channels.link-twitch') })).toBeTruthy()
	expect(within(section).queryByText(/operator/)).toBeNull()
})

test('without Twitch sign-in there is no dead end: Twitch is named with the platforms the operator links', async () => {
	renderChannels({ providers: ['google'], connectable: ['youtube'] })
	const section = await screen.findByRole('region', { name: t('channels.title') })
	expect(within(section).queryByRole('button', { name: t('channels.link-twitch') })).toBeNull()
	expect(within(section).queryByText(t('channels.link-twitch-hint'))).toBeNull()
	expect(within(section).getByText(t('channels.other-platforms', { platforms: 'Twitch or Kick' }))).toBeTruthy()
	expect(within(section).getByRole('button', { name: t('channels.connect', { platform: 'YouTube' }) })).toBeTruthy()
})

test('a linked Twitch channel is listed whatever the sign-in methods, and not offered again', async () => {
	renderChannels({ providers: [], channels: [{ platform: 'twitch', channel: 'mia_plays' }] })
	const section = await screen.findByRole('region', { name: t('channels.title') })
	expect(within(section).getByText('mia_plays')).toBeTruthy()
	expect(within(section).queryByRole('button', { name: t('channels.link-twitch') })).toBeNull()
	expect(within(section).getByText(t('channels.other-platforms', { platforms: 'YouTube or Kick' }))).toBeTruthy()
})
