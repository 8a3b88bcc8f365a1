import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useTranslation } from '#app/i18n/translation'
import type { Locale } from '#app/i18n/locales'
import { formatCoins } from '#app/modules/shop/format'
import { useHydrated } from '#app/utils/use-hydrated'

/** A session's end-of-stream recap, for its creator only (public.session_recap, public.session_top_boosters). */
export type SessionRecap = {
	/** The coins the session's completed dares paid the creator. */
	earned: number
	completed: number
	failed: number
	/** Rejected, expired and removed dares: their boosts went back. */
	refunded: number
	/** Most coins first; boosts given back left out. */
	topFans: Array<{ username: string; coins: number }>
}

/** How long "Copied" shows (docs/product.md §15.7). */
const COPIED_MS = 1500

/**
 * The recap on the ended session's page, for its creator (docs/product.md
 * §5.8): the coins earned, the dares done, not done and refunded, the top
 * fans, and the session's link to share (its page shows the share card).
 * Only the creator sees it; the share text names no coins.
 */
export function RecapPanel({ recap, title, url, cardUrl, lang }: { recap: SessionRecap; title: string; url: string; cardUrl: string; lang: Locale }) {
	const { t } = useTranslation()
	const text = t('sessions.recap-share-text', { title })
	return (
		<section id="recap" className="recap" aria-labelledby="recap-title">
			<h2 id="recap-title">{t('sessions.recap-title')}</h2>
			<p className="muted recap__private">{t('sessions.recap-private')}</p>
			<div className="recap__grid">
				<dl className="recap__numbers">
					<div className="recap__earned">
						<dt>{t('sessions.recap-earned')}</dt>
						<dd>{formatCoins(lang, recap.earned)}</dd>
					</div>
					<div className="recap__stat recap__stat--completed">
						<dt>{t('sessions.recap-completed')}</dt>
						<dd>{recap.completed.toLocaleString(lang)}</dd>
					</div>
					<div className="recap__stat recap__stat--failed">
						<dt>{t('sessions.recap-failed')}</dt>
						<dd>{recap.failed.toLocaleString(lang)}</dd>
					</div>
					<div className="recap__stat">
						<dt>{t('sessions.recap-refunded')}</dt>
						<dd>{recap.refunded.toLocaleString(lang)}</dd>
					</div>
				</dl>
				<section className="recap__fans" aria-labelledby="recap-fans-title">
					<h3 id="recap-fans-title">{t('sessions.recap-fans')}</h3>
					{recap.topFans.length === 0 ? (
						<p className="muted">{t('sessions.recap-no-fans')}</p>
					) : (
						<ol>
							{recap.topFans.map((fan) => (
								<li key={fan.username}>
									<span className="recap__fan">{fan.username}</span> <span className="recap__fan-coins">{t('sessions.recap-fan-coins', { coins: formatCoins(lang, fan.coins) })}</span>
								</li>
							))}
						</ol>
					)}
				</section>
			</div>
			<ShareRecap text={text} url={url} title={title} cardUrl={cardUrl} />
		</section>
	)
}

/**
 * The share part: the text and link to post. With JavaScript one button
 * opens the device's share sheet where there is one, else copies them;
 * without, they stand in a field to copy. The share image is the session's
 * card (docs/decisions/034-session-share-card.md).
 */
function ShareRecap({ text, url, title, cardUrl }: { text: string; url: string; title: string; cardUrl: string }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	const message = `${text} ${url}`
	useEffect(() => {
		if (!copied) return
		const timer = setTimeout(() => setCopied(false), COPIED_MS)
		return () => clearTimeout(timer)
	}, [copied])
	const share = async () => {
		if (typeof navigator.share === 'function') {
			// Closing the share sheet rejects: nothing to say about it.
			await navigator.share({ title, text, url }).catch(() => {})
			return
		}
		try {
			await navigator.clipboard.writeText(message)
			setCopied(true)
		} catch {
			// Clipboard refused (permissions): the field stays there to copy by hand.
			document.getElementById('recap-share-text')?.focus()
		}
	}
	return (
		<div className="recap__share">
			<label htmlFor="recap-share-text" className="recap__share-label">
				{t('sessions.recap-share-title')}
			</label>
			<textarea id="recap-share-text" readOnly rows={3} value={message} onFocus={(e) => e.currentTarget.select()} />
			<div className="actions">
				{hydrated ? (
					<button type="button" className="button button--primary" onClick={() => void share()}>
						<span aria-live="polite">{copied ? t('sessions.copied') : t('sessions.recap-share')}</span>
					</button>
				) : null}
				<a className="button button--ghost" href={cardUrl} target="_blank" rel="noopener">
					{t('sessions.recap-card')}
				</a>
			</div>
		</div>
	)
}

/** The recap in one line of the creator's sessions list, with a link to the full one. */
export function RecapLine({ recap, lang, href }: { recap: SessionRecap; lang: Locale; href: string }) {
	const { t } = useTranslation()
	const fans = recap.topFans.map((fan) => `${fan.username} (${formatCoins(lang, fan.coins)})`).join(', ')
	return (
		<span className="recap-line">
			<span>
				{t('sessions.recap-line', {
					coins: formatCoins(lang, recap.earned),
					completed: recap.completed.toLocaleString(lang),
					failed: recap.failed.toLocaleString(lang),
					refunded: recap.refunded.toLocaleString(lang),
				})}
			</span>
			{fans ? <span>{t('sessions.recap-line-fans', { fans })}</span> : null}
			<Link to={href}>{t('sessions.recap-open')}</Link>
		</span>
	)
}
