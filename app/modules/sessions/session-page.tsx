import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form, Link, useLocation, useRevalidator } from 'react-router'
import { useGatedAction } from '#app/modules/account/gated-action'
import { useConsent } from '#app/modules/consent/consent-context'
import { PageTitle } from '#app/components/page-title'
import { SESSION_CARD } from '#app/modules/seo/session-card'
import { SubmitButton } from '#app/components/forms'
import type { Locale } from '#app/i18n/locales'
import { DaresPanel } from '#app/modules/dares/dares-panel'
import { OverlayOptions } from '#app/modules/overlay/overlay-options'
import type { DareView } from '#app/modules/dares/service.server'
import type { LiveState } from '#app/modules/realtime/use-live'
import { sessionState, useSessionFeed } from '#app/modules/realtime/use-session-feed'
import { toast } from '#app/components/toast'
import { trackKeyEvent } from '#app/modules/analytics/events'
import { balanceAnswered } from '#app/modules/wallet/live-balance'
import type { DareAnswer } from '#app/modules/dares/dares-panel'
import { useHydrated } from '#app/utils/use-hydrated'
import type { StreamPlatform } from './schemas'
import type { SessionPageData, SessionSummary } from './service.server'
import { StartSessionButton, type LinkedChannel } from './start-session-button'
import type { DareActionResult } from '#app/modules/dares/actions.server'
import { CreatorView, RecapLine, RecapPanel, StopConfirm } from './creator-parts'
import type { SessionRecap } from './recap'

/** Whether the page's live updates arrive; rendered after hydration only (without JavaScript the page is right on every action and reload). */
function LiveIndicator({ state }: { state: LiveState }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	return (
		<span className="live-state">
			{hydrated ? (
				<span className={`live-state__label live-state__label--${state}`} role="status">
					{t(`realtime.${state}`)}
				</span>
			) : null}
		</span>
	)
}

/** The clipboard "copied" indicator lasts 1,500 ms (docs/product.md §15.7). */
export const COPIED_MS = 1500

const WATCH_URL: Record<StreamPlatform, (channel: string) => string> = {
	twitch: (c) => `https://www.twitch.tv/${encodeURIComponent(c)}`,
	youtube: (c) => (YOUTUBE_CHANNEL_ID.test(c) ? `https://www.youtube.com/channel/${c}/live` : `https://www.youtube.com/@${encodeURIComponent(c)}/live`),
	kick: (c) => `https://kick.com/${encodeURIComponent(c)}`,
}

// YouTube embeds a channel's live stream by channel id (UC + 22 characters)
// only; a handle has no embeddable live URL.
const YOUTUBE_CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/

/**
 * The player's address for a channel, or null when it cannot be embedded.
 * Twitch requires the embedding page's host as `parent`. Every origin here
 * must be in the security policy's frame-src.
 */
export function embedUrl(platform: StreamPlatform, channel: string, parentHost: string): string | null {
	const c = encodeURIComponent(channel)
	switch (platform) {
		case 'twitch':
			return `https://player.twitch.tv/?channel=${c}&parent=${encodeURIComponent(parentHost)}&muted=true`
		case 'youtube':
			return YOUTUBE_CHANNEL_ID.test(channel) ? `https://www.youtube-nocookie.com/embed/live_stream?channel=${c}` : null
		case 'kick':
			return `https://player.kick.com/${c}?muted=true`
	}
}

export type SessionPageProps = SessionPageData & {
	lang: Locale
	notLive: boolean
	/** The public address of this session's channel page. */
	shareUrl: string
	/** APP_URL's host, the Twitch player's `parent`. */
	parentHost: string
	signedIn: boolean
	/** The viewer's own channels (to start a new session from an ended one's page). */
	viewerChannels: LinkedChannel[]
	viewerHasLiveSession: boolean
	dares: DareView[]
	/** Where the loader's reading stood, for the live updates (readCovered). */
	covered: number
	/** The viewer's balance, read after the dares (the header shows it: wallet-balance.tsx). */
	walletBalance: number | null
	viewerId: string | null
	/** The idempotency key of this page's money forms. */
	formKey: string
	/** The OBS overlay's URL with its key: for the creator of a live session only. */
	overlayUrl: string | null
	/** Whether every new dare waits for the creator's review: for the creator of a live session only (else null). */
	holdNewDares: boolean | null
	/** The creator's recaps of this session and their other sessions once ended, by id: for the creator only (else empty). */
	recaps: Record<string, SessionRecap>
}

/**
 * A session's page. Its dares and state are live (useSessionFeed): each
 * update is applied as it comes, with no request; the viewer's own boosts,
 * votes and dares are answered with their reading, applied the same way.
 */
export function SessionPage(props: SessionPageProps) {
	const { t } = useTranslation()
	const { notLive, lang } = props
	const feed = useSessionFeed(
		{ sessionId: props.session.id, session: sessionState(props.session.status, props.dares), dares: props.dares, covered: props.covered },
		props.viewerId ?? 'anon',
		props.session.status === 'active',
	)
	const status = feed.view.session?.status ?? props.session.status
	const session = status === props.session.status ? props.session : { ...props.session, status }
	const { own, reread } = feed
	const { viewerId, walletBalance } = props
	const onAnswer = useCallback(
		({ result, sentAt }: DareAnswer) => {
			if (!result.ok) {
				toast.error(result.error)
				return
			}
			if (result.dare && result.xid !== null) own([result.dare], result.xid)
			if (result.balance !== null && viewerId) balanceAnswered(viewerId, walletBalance ?? 0, result.balance, sentAt)
			// Done, but its reading failed: the page reads itself again.
			if (result.balance === null) reread()
			if (result.event) trackKeyEvent(result.event)
			toast.success(result.message)
		},
		[own, reread, viewerId, walletBalance],
	)
	// The creator's view: its answer's toast, then the page read again, so the view is right at once even when the live updates lag.
	const onCreatorAnswer = useCallback(
		(result: DareActionResult) => {
			if (result.ok) toast.success(result.message)
			else toast.error(result.error)
			reread()
		},
		[reread],
	)
	const platform = t(`platforms.${session.platform}`)
	const creator = session.creatorName ?? session.channel
	return (
		<article className="session-page">
			<PageTitle
				title={session.title}
				description={t(session.status === 'active' ? 'sessions.share-description' : 'sessions.share-description-ended', { creator, platform })}
				image={{
					url: `/${lang}/session/${session.id}/card.png`,
					...SESSION_CARD,
					alt: t('sessions.share-image-alt', { title: session.title, creator, platform }),
				}}
				type="video.other"
			/>
			{notLive ? (
				<p className="notice" role="status">
					{t('sessions.not-live')}
				</p>
			) : null}
			<header className="session-page__header">
				<p className="session__meta">
					<span className={`badge badge--${session.status}`}>{session.status === 'active' ? t('sessions.live') : t('sessions.ended')}</span>
					<span className={`platform platform--${session.platform}`}>{platform}</span>
					<span>{session.channel}</span>
					{session.status === 'active' ? <LiveIndicator state={feed.state} /> : null}
				</p>
				<h1>{session.title}</h1>
				<p className="muted">{t('sessions.by', { creator })}</p>
			</header>
			{/* The creator's parts: a chunk of their own (creator-parts.tsx). */}
			{props.isCreator && session.status === 'active' ? (
				<CreatorView sessionId={session.id} dares={feed.view.dares} formKey={props.formKey} lang={lang} onAnswer={onCreatorAnswer} />
			) : null}
			{props.isCreator && session.status === 'ended' && props.recaps[session.id] ? (
				<RecapPanel
					recap={props.recaps[session.id]!}
					title={session.title}
					url={new URL(`/${lang}/session/${session.id}`, props.shareUrl).toString()}
					cardUrl={`/${lang}/session/${session.id}/card.png`}
					lang={lang}
				/>
			) : null}
			{/* On a wide screen the stream and the dares side by side; on a phone the stream, the dares, then the rest. */}
			<div className="session-page__grid">
				<div className="session-page__stage">
					<StreamPlayer {...props} />
					<p className="session-page__watch">
						<a href={WATCH_URL[session.platform](session.channel)} target="_blank" rel="noopener noreferrer">
							{t('sessions.watch-on', { platform })}
						</a>
					</p>
					{props.isCreator ? <CreatorControls {...props} session={session} dares={feed.view.dares} /> : session.status === 'active' ? <JoinPanel {...props} creator={creator} /> : null}
				</div>
				<div className="session-page__dares">
					<DaresPanel
						session={session}
						dares={feed.view.dares}
						onAnswer={onAnswer}
						lang={lang}
						isCreator={props.isCreator}
						signedIn={props.signedIn}
						viewerId={props.viewerId}
						formKey={props.formKey}
					/>
				</div>
				<aside className="session-page__side">
					<section className="panel" aria-labelledby="session-rules">
						<h2 id="session-rules">{t('sessions.rules')}</h2>
						<ul className="session-rules">
							<li>{t('sessions.rule-min-boost', { amount: session.minBoost.toLocaleString(lang) })}</li>
							<li>{t('sessions.rule-voting', { seconds: session.votingDuration })}</li>
							<li>{t('sessions.rule-dares', { count: session.maxDaresPerUser, free: session.maxFreeDaresPerUser })}</li>
						</ul>
					</section>
					{props.overlayUrl ? <OverlayPanel url={props.overlayUrl} sessionId={session.id} /> : null}
					<CopyPanel id="share" title={t('sessions.share')} url={props.shareUrl} />
				</aside>
			</div>
			{props.otherSessions.length > 0 ? <OtherSessions sessions={props.otherSessions} lang={lang} creator={creator} recaps={props.recaps} /> : null}
		</article>
	)
}

/**
 * The player is a third party that may set cookies: it loads only while its
 * platform's entry of the cookie settings is on (app/modules/consent).
 * Otherwise a prompt allows that one entry and loads it: a form post that
 * works with and without JavaScript and comes back here.
 */
function StreamPlayer({ session, parentHost }: SessionPageProps) {
	const { t } = useTranslation()
	const { allows } = useConsent()
	const location = useLocation()
	const platform = t(`platforms.${session.platform}`)
	const src = embedUrl(session.platform, session.channel, parentHost)
	if (!src) {
		return (
			<div className="player player--placeholder">
				<p>{t('sessions.no-player')}</p>
			</div>
		)
	}
	if (allows(session.platform)) {
		return (
			<div className="player">
				<iframe
					src={src}
					title={t('sessions.player-title', { channel: session.channel, platform })}
					allow="autoplay; fullscreen; encrypted-media; picture-in-picture"
					allowFullScreen
					referrerPolicy="strict-origin-when-cross-origin"
				/>
			</div>
		)
	}
	return (
		<Form method="post" action="/consent" preventScrollReset className={`player player--placeholder player--${session.platform}`}>
			<input type="hidden" name="redirectTo" value={location.pathname + location.search} />
			<button type="submit" name="allow" value={session.platform} className="button button--primary">
				{t('sessions.load-player', { platform })}
			</button>
			<p className="muted">{t('sessions.player-notice', { platform })}</p>
		</Form>
	)
}

function JoinPanel({ signedIn, lang, creator }: SessionPageProps & { creator: string }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const gated = useGatedAction()
	const location = useLocation()
	const here = location.pathname + location.search
	return (
		<section className="panel panel--join" aria-labelledby="join-title">
			<h2 id="join-title">{t('sessions.join-title')}</h2>
			<p>{t('sessions.join-text', { creator })}</p>
			{signedIn ? (
				<p className="muted">{t('sessions.join-ready')}</p>
			) : (
				<>
					<p className="muted">{t('sessions.join-visitor')}</p>
					{hydrated ? (
						<button type="button" className="button button--primary" onClick={() => gated('create-dare', () => {})}>
							{t('sessions.join-sign-in')}
						</button>
					) : (
						<Link className="button button--primary" to={`/${lang}/login?redirectTo=${encodeURIComponent(here)}`}>
							{t('sessions.join-sign-in')}
						</Link>
					)}
				</>
			)}
		</section>
	)
}

/** How often the creator's page looks for dares waiting for review. */
const HELD_DARES_REFRESH_MS = 15_000

/**
 * A held dare makes no live update (nobody on the session's topic may see
 * it: docs/product.md §13.3), so the creator's page of their live session
 * reads itself again every 15 seconds while it is visible: a dare waiting
 * for review shows up on stream without a reload. One creator per session:
 * a loader run every 15 s, whatever the audience.
 */
function useHeldDaresRefresh(active: boolean) {
	const revalidator = useRevalidator()
	useEffect(() => {
		if (!active) return
		const timer = setInterval(() => {
			if (document.visibilityState === 'visible' && revalidator.state === 'idle') void revalidator.revalidate()
		}, HELD_DARES_REFRESH_MS)
		return () => clearInterval(timer)
	}, [active, revalidator])
}

function CreatorControls({ session, dares, lang, viewerChannels, viewerHasLiveSession, signedIn, formKey, holdNewDares }: SessionPageProps) {
	const { t } = useTranslation()
	useHeldDaresRefresh(session.status === 'active')
	return (
		<section className="panel panel--controls" aria-labelledby="controls-title">
			<h2 id="controls-title">{t('sessions.controls-title')}</h2>
			{session.status === 'active' ? (
				<>
					<StopConfirm dares={dares} formKey={formKey} lang={lang} />
					<HoldSwitch sessionId={session.id} hold={holdNewDares === true} />
				</>
			) : !viewerHasLiveSession ? (
				<StartSessionButton channels={viewerChannels} lang={lang} signedIn={signedIn} />
			) : null}
		</section>
	)
}

/**
 * The creator's "hold every new dare for review" switch: its state in words,
 * and one button that turns it the other way (a plain form post that comes
 * back with a toast).
 */
function HoldSwitch({ sessionId, hold }: { sessionId: string; hold: boolean }) {
	const { t } = useTranslation()
	return (
		<Form method="post" className="hold-switch stack" preventScrollReset aria-labelledby="hold-title">
			<input type="hidden" name="sessionId" value={sessionId} />
			<input type="hidden" name="hold" value={hold ? 'off' : 'on'} />
			<h3 id="hold-title">{t('moderation.hold-title')}</h3>
			<p className="hold-switch__state">
				<span className={`hold-switch__badge hold-switch__badge--${hold ? 'on' : 'off'}`}>{t(hold ? 'moderation.hold-state-on' : 'moderation.hold-state-off')}</span>{' '}
				<span className="muted">{t(hold ? 'moderation.hold-text-on' : 'moderation.hold-text-off')}</span>
			</p>
			<div>
				<SubmitButton intent="hold" className="button">
					{t(hold ? 'moderation.hold-stop' : 'moderation.hold-start')}
				</SubmitButton>
			</div>
		</Form>
	)
}

/**
 * A panel with an address to copy; "Copied" shows for 1,500 ms. Without
 * JavaScript the address is there to select. The session's share link, and
 * the creator's overlay URL.
 */
function CopyPanel({ id, title, url, children, after }: { id: string; title: string; url: string; children?: React.ReactNode; after?: React.ReactNode }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	useEffect(() => {
		if (!copied) return
		const timer = setTimeout(() => setCopied(false), COPIED_MS)
		return () => clearTimeout(timer)
	}, [copied])
	const copy = async () => {
		try {
			await navigator.clipboard.writeText(url)
			setCopied(true)
		} catch {
			// Clipboard refused (permissions): the field stays there to copy by hand.
			document.getElementById(`${id}-url`)?.focus()
		}
	}
	return (
		<section className="panel" aria-labelledby={`${id}-title`}>
			<h2 id={`${id}-title`}>{title}</h2>
			{children}
			<div className="copy-link">
				<input
					id={`${id}-url`}
					type="text"
					readOnly
					value={url}
					aria-labelledby={`${id}-title`}
					onFocus={(e) => e.currentTarget.select()}
				/>
				{hydrated ? (
					<button type="button" className="button" onClick={() => void copy()}>
						<span aria-live="polite">{copied ? t('sessions.copied') : t('sessions.copy-link')}</span>
					</button>
				) : null}
			</div>
			{after}
		</section>
	)
}

/** The creator's OBS overlay URL, and a new one when the old has leaked. */
function OverlayPanel({ url, sessionId }: { url: string; sessionId: string }) {
	const { t } = useTranslation()
	return (
		<CopyPanel
			id="overlay"
			title={t('overlay.card-title')}
			url={url}
			after={
				<Form method="post" preventScrollReset>
					<input type="hidden" name="sessionId" value={sessionId} />
					<SubmitButton intent="overlay-regenerate" className="button button--ghost">
						{t('overlay.regenerate')}
					</SubmitButton>
				</Form>
			}
		>
			<p className="muted">{t('overlay.card-text')}</p>
			<OverlayOptions />
		</CopyPanel>
	)
}

/** The creator's other sessions; to the creator, each ended one with its recap (docs/product.md §5.8). */
function OtherSessions({ sessions, lang, creator, recaps }: { sessions: SessionSummary[]; lang: Locale; creator: string; recaps: Record<string, SessionRecap> }) {
	const { t } = useTranslation()
	const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' })
	return (
		<section className="other-sessions" aria-labelledby="other-sessions">
			<h2 id="other-sessions">{t('sessions.other-sessions', { creator })}</h2>
			<ul>
				{sessions.map((s) => (
					<li key={s.id}>
						<Link to={`/${lang}/session/${s.id}`}>{s.title}</Link>
						<span className="muted">
							{' · '}
							{t(`platforms.${s.platform}`)}
							{' · '}
							{s.status === 'active' ? t('sessions.live') : <time dateTime={s.createdAt}>{date.format(new Date(s.createdAt))}</time>}
						</span>
						{recaps[s.id] ? <RecapLine recap={recaps[s.id]!} lang={lang} href={`/${lang}/session/${s.id}#recap`} /> : null}
					</li>
				))}
			</ul>
		</section>
	)
}
