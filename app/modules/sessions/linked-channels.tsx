import { useTranslation } from '#app/i18n/translation'
import { Form, useLocation } from 'react-router'
import { SubmitButton } from '#app/components/forms'
import type { Locale } from '#app/i18n/locales'
import type { ChannelPlatform } from '#app/modules/channels/platforms'
import { useRootData } from '#app/root-data'
import type { StreamPlatform } from './schemas'
import type { LinkedChannel } from './start-session-button'

export const channelsPath = (lang: string) => `/${lang}/settings/channels`

/**
 * The settings' "Linked channels" section: the viewer's channels with an
 * unlink button each, linking the Twitch channel of their Twitch sign-in, and
 * connecting a YouTube or Kick channel through that platform's consent page
 * (`connectable`: the platforms the operator configured; ADR 037). A
 * platform the site cannot link (Twitch without Twitch sign-in, YouTube or
 * Kick without their OAuth client) is named in one line instead: the
 * operator links it by hand (docs/product.md §10.9).
 * Self-contained (its forms post to /{lang}/settings/channels and come back to
 * the page they were sent from), so any settings page can render it.
 */
export function LinkedChannels({ channels, connectable, lang }: { channels: LinkedChannel[]; connectable: ChannelPlatform[]; lang: Locale }) {
	const { t, i18n } = useTranslation()
	const location = useLocation()
	const back = location.pathname + location.search
	// Twitch's channel comes from a Twitch sign-in: offered only where Twitch sign-in is configured.
	const twitchSignIn = useRootData()?.oauthProviders.includes('twitch') === true
	const hasTwitch = channels.some((c) => c.platform === 'twitch')
	const unlinked = (['youtube', 'kick'] as const).filter((platform) => !channels.some((c) => c.platform === platform))
	const toConnect = unlinked.filter((platform) => connectable.includes(platform))
	const byOperator: StreamPlatform[] = [...(!hasTwitch && !twitchSignIn ? (['twitch'] as const) : []), ...unlinked.filter((platform) => !connectable.includes(platform))]
	return (
		<section className="card settings__section linked-channels" aria-labelledby="linked-channels-title">
			<h2 id="linked-channels-title">{t('channels.title')}</h2>
			<p className="settings__lead">{t('channels.description')}</p>
			{channels.length === 0 ? <p>{t('channels.none')}</p> : null}
			{channels.length > 0 ? (
				<ul className="linked-channels__list">
					{channels.map((c) => (
						<li key={c.platform}>
							<span className={`platform platform--${c.platform}`}>{t(`platforms.${c.platform}`)}</span>
							<span className="linked-channels__name">{c.channel}</span>
							<Form method="post" action={channelsPath(lang)}>
								<input type="hidden" name="redirectTo" value={back} />
								<input type="hidden" name="platform" value={c.platform} />
								<button
									type="submit"
									name="intent"
									value="unlink"
									className="button button--ghost"
									aria-label={t('channels.unlink-label', { platform: t(`platforms.${c.platform}`), channel: c.channel })}
								>
									{t('channels.unlink')}
								</button>
							</Form>
						</li>
					))}
				</ul>
			) : null}
			{!hasTwitch && twitchSignIn ? (
				<Form method="post" action={channelsPath(lang)} className="stack">
					<input type="hidden" name="redirectTo" value={back} />
					<div>
						<SubmitButton intent="link-twitch" className="button button--twitch">
							{t('channels.link-twitch')}
						</SubmitButton>
					</div>
					<p className="field__hint">{t('channels.link-twitch-hint')}</p>
				</Form>
			) : null}
			{toConnect.length > 0 ? (
				// A full page load: the answer is a redirect to the platform's own site.
				<Form method="post" action={channelsPath(lang)} reloadDocument className="linked-channels__connect">
					<input type="hidden" name="redirectTo" value={back} />
					<input type="hidden" name="intent" value="connect" />
					{toConnect.map((platform) => (
						<button key={platform} type="submit" name="platform" value={platform} className={`button button--${platform}`}>
							{t('channels.connect', { platform: t(`platforms.${platform}`) })}
						</button>
					))}
					<p className="field__hint">{t('channels.connect-hint')}</p>
				</Form>
			) : null}
			{byOperator.length > 0 ? (
				<p className="field__hint">
					{t('channels.other-platforms', {
						platforms: new Intl.ListFormat(i18n.language, { type: 'disjunction' }).format(byOperator.map((p) => t(`platforms.${p}`))),
					})}
				</p>
			) : null}
		</section>
	)
}
