import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { LOCALES, switchLocalePath, type Locale } from '#app/i18n/locales'

/**
 * The languages as a row of choices with the current one marked. Plain links:
 * a full page load lets the server set the language cookie and send the new
 * language's messages, with or without JavaScript.
 */
export function LanguageSection({ locale }: { locale: Locale }) {
	const { t } = useTranslation()
	const location = useLocation()
	return (
		<section className="card settings__section" aria-labelledby="settings-language">
			<h2 id="settings-language">{t('nav.language')}</h2>
			<ul className="choice-list">
				{LOCALES.map((l) => (
					<li key={l.code}>
						<a
							className="choice"
							href={switchLocalePath(location.pathname, l.code)}
							hrefLang={l.code}
							lang={l.code}
							aria-current={l.code === locale ? 'true' : undefined}
						>
							{l.name}
						</a>
					</li>
				))}
			</ul>
		</section>
	)
}
