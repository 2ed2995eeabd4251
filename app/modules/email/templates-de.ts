/**
 * The German wording of every e-mail (issue 20 §3, ADR 053): what the seed installs as the install
 * default's German versions, and what "Add a German version" starts from for the install default.
 * Same placeholders as the English copy (DEFAULT_TEMPLATES); a test keeps them in step. Addressed
 * formally ("Sie").
 */
import type { TemplateKey } from './templates'

export const GERMAN_TEMPLATES: Record<TemplateKey, { subject: string; body: string }> = {
  activate_account: {
    subject: 'Ihr 360°-Feedback mit {{brandName}}: Bitte aktivieren Sie Ihr Konto',
    body: `Guten Tag {{recipientName}},

{{brandName}} hat Sie eingeladen, an einem 360°-Feedback-Programm teilzunehmen. Es stellt Ihre eigene Sicht auf Ihre Arbeitsweise den Einschätzungen von Kolleginnen und Kollegen gegenüber, die Sie selbst auswählen. So erkennen Sie Ihre Stärken deutlich und können entscheiden, woran Sie als Nächstes wachsen möchten.

Aktivieren Sie zunächst Ihr Konto und wählen Sie ein Passwort:

{{link}}

Nach der Anmeldung finden Sie Ihre Selbsteinschätzung und können Kolleginnen und Kollegen um Feedback bitten. Deren Antworten sehen Sie nur zusammengefasst und ohne Namen, und erst, wenn genügend geantwortet haben.

Dieser Link gilt nur für Sie und kann einmal verwendet werden. Falls er nicht mehr funktioniert, bitten Sie Ihre Ansprechperson bei {{brandName}} um einen neuen.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  colleague_invite: {
    subject: '{{employeeName}} bittet Sie um Ihr Feedback',
    body: `Guten Tag {{colleagueName}},

{{employeeName}} nimmt an einem 360°-Feedback-Programm von {{brandName}} teil und bittet Sie um Ihre Einschätzung der eigenen Arbeitsweise.

Der Fragebogen behandelt die Stärken und Entwicklungsfelder von {{employeeName}}. {{privacyNote}} Sie können Ihre Antworten speichern und den Fragebogen später abschließen.

Bitte antworten Sie bis zum {{dueDate}}:

{{link}}

Dieser Link gilt nur für Sie; bitte leiten Sie ihn nicht weiter. Wenn Sie nicht teilnehmen möchten, können Sie diese E-Mail einfach ignorieren.

Vielen Dank für Ihre Zeit
Ihr Team von {{brandName}}`,
  },
  reminder: {
    subject: 'Eine freundliche Erinnerung: Ihr Feedback-Fragebogen ist noch offen',
    body: `Guten Tag {{recipientName}},

in {{schemeName}} wartet noch ein Feedback-Fragebogen auf Sie. Er ist bis zum {{dueDate}} geöffnet.

Sie können dort weitermachen, wo Sie aufgehört haben; alle bisherigen Antworten sind gespeichert:

{{link}}

Falls Sie Ihre Antworten inzwischen abgeschickt haben, vielen Dank – dann betrachten Sie diese Nachricht bitte als gegenstandslos.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  reset_password: {
    subject: 'Setzen Sie Ihr Passwort für das Feedback-Portal von {{brandName}} zurück',
    body: `Guten Tag {{recipientName}},

wir haben eine Anfrage erhalten, das Passwort Ihres Kontos im 360°-Feedback-Portal von {{brandName}} zurückzusetzen. Über diesen Link wählen Sie ein neues Passwort:

{{link}}

Der Link kann einmal verwendet werden und läuft bald ab. Wenn Sie kein neues Passwort angefordert haben, können Sie diese E-Mail unbesorgt ignorieren: Ihr bisheriges Passwort bleibt unverändert.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  verify_email: {
    subject: 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
    body: `Guten Tag {{recipientName}},

bitte bestätigen Sie, dass dies die richtige E-Mail-Adresse für Ihr Konto im 360°-Feedback-Portal von {{brandName}} ist, damit wir Sie über Ihr Feedback auf dem Laufenden halten können:

{{link}}

Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie unbesorgt ignorieren.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  response_ready: {
    subject: 'Ihr 360°-Feedback-Bericht ist fertig',
    body: `Guten Tag {{recipientName}},

gute Nachrichten: Genügend Kolleginnen und Kollegen haben ihr Feedback gegeben, und Ihr Bericht zu {{schemeName}} ist fertig.

Er stellt Ihre eigene Sicht den zusammengefassten Antworten Ihrer Kolleginnen und Kollegen gegenüber, nach Kompetenz und nach Frage. Nehmen Sie sich Zeit dafür: Vielen hilft es, ihn zweimal zu lesen, sich Überraschendes zu notieren und ein oder zwei Schwerpunkte zu wählen.

{{link}}

Die Antworten Ihrer Kolleginnen und Kollegen werden ohne Namen gezeigt. Wenn Sie Ihre Ergebnisse besprechen möchten, hilft Ihnen Ihre Ansprechperson bei {{brandName}} gern weiter.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  setup_admin: {
    subject: 'Schließen Sie die Einrichtung Ihres Feedback-Portals ab',
    body: `Guten Tag {{recipientName}},

das Feedback-Portal unter {{appUrl}} hat noch keine Administratorin und keinen Administrator. Über diesen Link legen Sie das erste Administratorkonto an:

{{link}}

Der Link kann einmal verwendet werden. Wenn Sie dieses Portal nicht installiert haben, können Sie diese E-Mail ignorieren.`,
  },
  programme_open: {
    subject: '{{schemeName}} hat begonnen: Ihr 360°-Feedback mit {{brandName}}',
    body: `Guten Tag {{recipientName}},

Ihr 360°-Feedback-Programm {{schemeName}} hat begonnen. Beginnen Sie mit Ihrer Selbsteinschätzung und laden Sie dann die Kolleginnen und Kollegen ein, deren Sicht Ihnen wichtig ist.

{{link}}

Bitte schließen Sie bis zum {{dueDate}} ab. Die Antworten Ihrer Kolleginnen und Kollegen sehen Sie nur zusammengefasst und ohne Namen, und erst, wenn genügend geantwortet haben.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  admin_invite: {
    subject: 'Sie wurden eingeladen, das Feedback von {{brandName}} zu verwalten',
    body: `Guten Tag {{recipientName}},

{{inviterName}} hat Sie eingeladen, das Feedback-Portal unter {{appUrl}} mitzuverwalten. Wählen Sie Ihr Passwort, um die Einrichtung Ihres Kontos abzuschließen:

{{link}}

Der Link kann einmal verwendet werden und läuft in wenigen Tagen ab. Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.`,
  },
  response_reopened: {
    subject: 'Ihr Feedback in {{schemeName}} wurde wieder geöffnet',
    body: `Guten Tag {{recipientName}},

die Programmverwaltung hat Ihre Antworten in {{schemeName}} zu {{employeeName}} wieder geöffnet, damit Sie sie durchsehen, nach Wunsch ändern und erneut abschicken können:

{{reason}}

{{link}}

Ihre bisherigen Antworten bleiben erhalten; gezählt wird erst, wenn Sie erneut abschicken. Bitte schicken Sie sie bis zum {{dueDate}} ab.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  sign_in_link: {
    subject: 'Ihr Anmeldelink für das Feedback-Portal von {{brandName}}',
    body: `Guten Tag {{recipientName}},

wir haben eine Anfrage nach einem einmaligen Link zur Anmeldung bei Ihrem Konto im 360°-Feedback-Portal von {{brandName}} erhalten. Um sich anzumelden, öffnen Sie diesen Link und klicken Sie auf der angezeigten Seite auf die Schaltfläche:

{{link}}

Der Link funktioniert einmal und läuft nach 15 Minuten ab. Der Browser, mit dem Sie sich anmelden, wird wiedererkannt, sodass ihn Anmeldebeschränkungen beim nächsten Mal nicht aufhalten.

Wenn Sie diesen Link nicht angefordert haben, können Sie diese E-Mail unbesorgt ignorieren: Ihr Konto und Ihr Passwort bleiben unverändert.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  nomination_submitted: {
    subject: '{{employeeName}} bittet Sie, die Feedback-Liste freizugeben',
    body: `Guten Tag {{recipientName}},

{{employeeName}} hat in {{schemeName}} die Kolleginnen und Kollegen ausgewählt, von denen Feedback kommen soll, und das Programm bittet Sie, die Liste zu prüfen, bevor jemand eingeladen wird.

Bitte melden Sie sich an und geben Sie die Liste frei, ändern Sie sie oder senden Sie sie mit einem Kommentar zurück:

{{link}}

Niemand auf der Liste wird kontaktiert, bevor sie freigegeben ist. Antworten sind bis zum {{dueDate}} möglich – je früher die Liste steht, desto mehr Zeit haben die Kolleginnen und Kollegen.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  nomination_sent_back: {
    subject: 'Ihre Feedback-Liste in {{schemeName}} muss geändert werden',
    body: `Guten Tag {{recipientName}},

{{approverName}} hat sich die Kolleginnen und Kollegen angesehen, die Sie in {{schemeName}} um Feedback bitten möchten, und Ihnen die Liste zurückgesendet:

{{comment}}

Bitte melden Sie sich an, ändern Sie die Liste und senden Sie sie erneut:

{{link}}

Bisher wurde niemand auf der Liste kontaktiert. Antworten sind bis zum {{dueDate}} möglich.

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  nomination_approved: {
    subject: 'Ihre Feedback-Liste in {{schemeName}} ist freigegeben',
    body: `Guten Tag {{recipientName}},

{{approverName}} hat Ihre Liste für {{schemeName}} freigegeben. Alle darauf wurden nun eingeladen, Ihnen bis zum {{dueDate}} Feedback zu geben.

Auf Ihrer Seite mit den Einladungen sehen Sie, wer bereits geantwortet hat, und können Einladungen erneut senden:

{{link}}

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  nomination_reminder: {
    subject: 'Erinnerung: {{employeeName}} wartet auf die Freigabe der Feedback-Liste',
    body: `Guten Tag {{recipientName}},

{{employeeName}} hat Ihnen die Liste der Kolleginnen und Kollegen für {{schemeName}} gesendet und wartet auf Ihre Freigabe. Niemand darauf kann eingeladen werden, bevor Sie sie freigeben, und Antworten sind bis zum {{dueDate}} fällig.

{{link}}

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  plan_check_in: {
    subject: 'Zeit für einen Blick auf Ihren Entwicklungsplan',
    body: `Guten Tag {{recipientName}},

heute ist der Tag, den Sie gewählt haben, um auf Ihren Entwicklungsplan aus {{schemeName}} zurückzublicken ({{targetDate}}):

{{focusAreas}}

Wie weit sind Sie gekommen? Nehmen Sie sich ein paar Minuten, um festzuhalten, was funktioniert hat, was nicht und was Sie als Nächstes versuchen. In Ihrem Plan können Sie Ihre Maßnahmen ändern und ein neues Datum wählen:

{{link}}

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
  report_shared: {
    subject: '{{employeeName}} hat den eigenen Feedback-Bericht mit Ihnen geteilt',
    body: `Guten Tag {{recipientName}},

{{employeeName}} hat sich entschieden, den Feedback-Bericht aus {{schemeName}} mit Ihnen zu teilen.{{planNote}}

Der Bericht zeigt die Einschätzungen der Kolleginnen und Kollegen nur zusammengefasst, nie, wer was gesagt hat. {{employeeName}} kann das Teilen jederzeit beenden.

{{link}}

Freundliche Grüße
Ihr Team von {{brandName}}`,
  },
}

/** The German text of the button that carries `{{link}}`. */
export const GERMAN_LINK_LABELS: Record<TemplateKey, string> = {
  activate_account: 'Konto aktivieren',
  colleague_invite: 'Feedback geben',
  reminder: 'Fragebogen fortsetzen',
  reset_password: 'Neues Passwort wählen',
  verify_email: 'E-Mail-Adresse bestätigen',
  response_ready: 'Bericht lesen',
  setup_admin: 'Administratorkonto anlegen',
  programme_open: 'Selbsteinschätzung beginnen',
  admin_invite: 'Passwort festlegen',
  response_reopened: 'Antworten durchsehen',
  sign_in_link: 'Anmelden',
  nomination_submitted: 'Liste prüfen',
  nomination_sent_back: 'Liste ändern',
  nomination_approved: 'Eingeladene ansehen',
  nomination_reminder: 'Liste prüfen',
  plan_check_in: 'Plan öffnen',
  report_shared: 'Bericht lesen',
}

/** The French text of the button that carries `{{link}}`. */
export const FRENCH_LINK_LABELS: Record<TemplateKey, string> = {
  activate_account: 'Activer votre compte',
  colleague_invite: 'Donner votre avis',
  reminder: 'Reprendre le questionnaire',
  reset_password: 'Choisir un nouveau mot de passe',
  verify_email: 'Confirmer votre adresse e-mail',
  response_ready: 'Lire votre rapport',
  setup_admin: 'Créer le compte administrateur',
  programme_open: 'Commencer votre auto-évaluation',
  admin_invite: 'Choisir votre mot de passe',
  response_reopened: 'Revoir vos réponses',
  sign_in_link: 'Se connecter',
  nomination_submitted: 'Examiner la liste',
  nomination_sent_back: 'Modifier votre liste',
  nomination_approved: 'Voir qui a été invité',
  nomination_reminder: 'Examiner la liste',
  plan_check_in: 'Ouvrir votre plan',
  report_shared: 'Lire le rapport',
}
