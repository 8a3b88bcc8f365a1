import { lazy, Suspense, useRef, useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Link, useFetcher } from 'react-router'
import { toast } from '#app/components/toast'
import type { Locale } from '#app/i18n/locales'
import { useHydrated } from '#app/utils/use-hydrated'
import type { StreamPlatform } from './schemas'

export type LinkedChannel = { platform: StreamPlatform; channel: string }

export const startSessionPath = (lang: string) => `/${lang}/start-session`

/** What /{lang}/start-session's loader answers: the creator's channels, and whether they still owe the current creator agreement. */
export type StartSessionStatus = { channels: LinkedChannel[]; needsAgreement: boolean }

/** The fetcher that reads StartSessionStatus for the dialog (the button starts it, the dialog's form reads it). */
export const START_SESSION_STATUS = 'start-session-status'

// The form (its validation and number fields) loads when a creator opens the
// dialog, not with every page that shows the button.
const StartSessionDialogBody = lazy(() => import('./start-session-form'))

/**
 * "Start a session": with JavaScript, the start-session dialog for creators
 * (non-creators get 'You must be a creator', docs/product.md §2.3), with the
 * creator agreement to accept in its form when the creator still owes it
 * (docs/product.md §10.6); without, a link to the page.
 */
export function StartSessionButton({
	channels,
	lang,
	signedIn,
	className = 'button button--primary',
}: {
	channels: LinkedChannel[]
	lang: Locale
	signedIn: boolean
	className?: string
}) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const dialog = useRef<HTMLDialogElement>(null)
	const [open, setOpen] = useState(false)
	const status = useFetcher<StartSessionStatus>({ key: START_SESSION_STATUS })
	if (!hydrated || !signedIn) {
		return (
			<Link to={startSessionPath(lang)} className={className}>
				{t('sessions.start')}
			</Link>
		)
	}
	const onClick = () => {
		if (channels.length === 0) {
			toast.error(t('errors.error-not-a-creator'), {
				description: t('sessions.not-creator'),
				action: { label: t('sessions.link-channels'), onClick: () => window.location.assign(`/${lang}/settings/channels`) },
			})
			return
		}
		// Whether the agreement is still owed, read while the form's chunk loads (the form waits for both).
		void status.load(startSessionPath(lang))
		setOpen(true)
		dialog.current?.showModal()
	}
	const close = () => {
		dialog.current?.close()
		setOpen(false)
	}
	return (
		<>
			<button type="button" className={className} onClick={onClick}>
				{t('sessions.start')}
			</button>
			<dialog ref={dialog} className="session-dialog" aria-labelledby="start-session-heading" onClose={() => setOpen(false)}>
				{open ? (
					<Suspense fallback={<p className="muted">{t('sessions.loading-form')}</p>}>
						<StartSessionDialogBody channels={channels} lang={lang} onClose={close} />
					</Suspense>
				) : null}
			</dialog>
		</>
	)
}

