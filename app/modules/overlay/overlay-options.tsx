import { useTranslation } from '#app/i18n/translation'
import { OVERLAY_PARTS } from './options'

/** The example under the list: an overlay with the vote and the dares only. */
export const OVERLAY_OPTIONS_EXAMPLE = '&alerts=0&top=0&join=0&qr=0'

/**
 * For the creator's overlay panel (the session page): the parts the overlay
 * shows and the address parameter that hides each one (options.ts). A
 * disclosure, so it takes no room until asked for, with or without JavaScript.
 */
export function OverlayOptions() {
	const { t } = useTranslation()
	return (
		<details className="overlay-options">
			<summary>{t('overlay-show.options-title')}</summary>
			<p>{t('overlay-show.options-lead')}</p>
			<dl>
				{OVERLAY_PARTS.map((part) => (
					<div key={part}>
						<dt>
							<code>&amp;{part}=0</code>
						</dt>
						<dd>{t(`overlay-show.option-${part}`)}</dd>
					</div>
				))}
			</dl>
			<p>
				{t('overlay-show.options-example')} <code>{OVERLAY_OPTIONS_EXAMPLE}</code>
			</p>
			<p className="muted">{t('overlay-show.options-motion')}</p>
		</details>
	)
}
