/*
 * modalwatch_module.h — the whole C ABI between modalwatchd and a rule module.
 *
 * A rule module is a shared library that exports one function:
 *
 *     const mw_module *modalwatch_module(void);
 *
 * It returns a pointer to a static, immutable description of the module: its
 * name and version, and for each rule its metadata (rules.md, "Rule metadata a
 * module must give") and the function the host calls for each event.
 *
 * Versioning: `abi_major` and `abi_minor` are the first two fields of
 * `mw_module` in every version, so a host can read them before anything else.
 * The host refuses a module whose major differs from its own or whose minor is
 * newer than its own. Within a major, structures only grow at their end, and a
 * host fills every field of its own minor; a module built against an older
 * minor simply reads a prefix of them.
 *
 * Lifetime: the host never unloads a module (Swift code must not be
 * dlclose'd). Everything a module returns must stay valid for the life of the
 * process. Every pointer the host passes to `on_event` is valid only for the
 * duration of that call.
 *
 * Threads: the host calls a rule from one thread at a time per session shard;
 * it may call the same rule from several shards at once, each with its own
 * sessions. A rule keeps no mutable global state: per-session and per-app
 * state lives in the host, through `mw_host.counter_add` and
 * `mw_host.window_push`.
 *
 * Module state (ABI 1.2): a module may give `on_init` and `on_destroy`. The host
 * calls `on_init` once when it loads the module, with the module's settings from
 * the configuration; the state it stores is passed as `mw_call.module_state` to
 * every call, and to `on_destroy` when the host releases the module (at exit).
 * The state is shared by every shard: make it immutable after `on_init`, or
 * synchronize what you write.
 *
 * Suggestions (ABI 1.3): a report may carry `mw_report.suggestion`, what to do
 * instead (violations.md `suggestion`). The host reads it only from a module
 * built against 1.3 or later; a violation of an older module has
 * `"suggestion": null`.
 *
 * Words (ABI 1.3): the host tokenizes the current event's texts (title,
 * message, label, button titles) once per event, on the first request
 * (`mw_host.words`), into the table `mw_call.texts`: every rule of the event
 * then reads the lists from the table by field, with no call and no matching
 * of the text. A module checks `texts` and `words` for NULL (a host without
 * them) and scans the text itself when the host has no list.
 *
 * Written reports (ABI 1.4): `mw_host.report_written` takes a report's subject,
 * key, quiet time and events like `report`, and when the host lets it through,
 * calls back the module's `mw_write_fn` once per part (message, evidence,
 * suggestion) with a writer over the host's violation buffer: the module writes
 * each part's text and figures through `write_text`, `write_int`, `write_key`,
 * `write_literal` and `write_json`, escaped once, straight where the violation's JSON is written,
 * with no string of its own. `report` stays for every module.
 *
 * Languages (ABI 1.5): `mw_event.locale` is the language of the event's texts
 * (the presentation's `locale`, else its session's, normalized), NULL when
 * undetermined. Each rule declares the languages it judges (`mw_rule.languages`,
 * MW_LANGUAGES_*); the host does not call an MW_LANGUAGES_ENGLISH rule for a text
 * in another language, and counts what it skipped. A rule that cannot judge the
 * event's language (it lacks the data) says so with `mw_host.skip_language`. A
 * module built against 1.4 or older declares nothing: its rules are called for
 * every text, as before.
 *
 * Strings are UTF-8, not NUL-terminated, given as `mw_str`; `ptr == NULL`
 * means absent or JSON null. Metadata strings in `mw_module` / `mw_rule` are
 * ordinary NUL-terminated C strings.
 *
 * Documentation for module authors: docs/writing-a-rule-module.md.
 */
#ifndef MODALWATCH_MODULE_H
#define MODALWATCH_MODULE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MW_ABI_MAJOR 1
#define MW_ABI_MINOR 5

/** The name of the one symbol a module exports. */
#define MW_ENTRY_SYMBOL "modalwatch_module"

/* ------------------------------------------------------------------ values */

/** A UTF-8 string slice; `ptr == NULL` means absent or null. */
typedef struct mw_str {
    const char *ptr;
    size_t len;
} mw_str;

/** "Absent" for every enumerated or tri-state field below. */
#define MW_ABSENT (-1)

/** Event types of wire format v1; bit `1u << type` in `mw_rule.event_mask`. */
typedef enum mw_event_type {
    MW_EVENT_UNKNOWN = 0,
    MW_EVENT_SESSION_START = 1,
    MW_EVENT_SESSION_END = 2,
    MW_EVENT_APP_BACKGROUND = 3,
    MW_EVENT_APP_FOREGROUND = 4,
    MW_EVENT_USER_ACTION = 5,
    MW_EVENT_TASK_PROGRESS = 6,
    MW_EVENT_ALERT_PRESENTED = 7,
    MW_EVENT_ALERT_DISMISSED = 8,
    MW_EVENT_SHEET_PRESENTED = 9,
    MW_EVENT_SHEET_DISMISSED = 10,
    MW_EVENT_MODAL_PRESENTED = 11,
    MW_EVENT_MODAL_DISMISSED = 12,
    MW_EVENT_POPOVER_PRESENTED = 13,
    MW_EVENT_POPOVER_DISMISSED = 14,
    MW_EVENT_NAV_PUSH = 15,
    MW_EVENT_NAV_POP = 16,
    MW_EVENT_TYPE_COUNT = 17
} mw_event_type;

#define MW_EVENT_BIT(type) (1u << (unsigned)(type))
#define MW_EVENT_ALL 0xFFFFFFFFu

/** Editions, as bits of `mw_rule.editions`; `mw_call.edition` is one bit. */
#define MW_EDITION_2009 1u
#define MW_EDITION_IOS7 2u
#define MW_EDITION_CURRENT 4u
#define MW_EDITION_ALL 7u

typedef enum mw_severity { MW_SEVERITY_INFO = 0, MW_SEVERITY_WARNING = 1, MW_SEVERITY_ERROR = 2 } mw_severity;

typedef enum mw_device { MW_DEVICE_PHONE = 0, MW_DEVICE_PAD, MW_DEVICE_MAC, MW_DEVICE_TV, MW_DEVICE_VISION } mw_device;
typedef enum mw_size_class { MW_SIZE_COMPACT = 0, MW_SIZE_REGULAR = 1 } mw_size_class;
typedef enum mw_control {
    MW_CONTROL_BUTTON = 0, MW_CONTROL_BAR_BUTTON, MW_CONTROL_TOOLBAR_BUTTON, MW_CONTROL_CELL,
    MW_CONTROL_GESTURE, MW_CONTROL_KEY, MW_CONTROL_OTHER
} mw_control;
typedef enum mw_task_state {
    MW_TASK_STARTED = 0, MW_TASK_PROGRESS, MW_TASK_FINISHED, MW_TASK_FAILED, MW_TASK_CANCELLED
} mw_task_state;
typedef enum mw_button_style { MW_BUTTON_DEFAULT = 0, MW_BUTTON_CANCEL, MW_BUTTON_DESTRUCTIVE } mw_button_style;
typedef enum mw_modal_role { MW_ROLE_DONE = 0, MW_ROLE_CANCEL, MW_ROLE_CONFIRM, MW_ROLE_OTHER } mw_modal_role;
typedef enum mw_via { MW_VIA_BUTTON = 0, MW_VIA_BACKGROUND, MW_VIA_PROGRAMMATIC, MW_VIA_GESTURE } mw_via;
typedef enum mw_modal_style {
    MW_STYLE_AUTOMATIC = 0, MW_STYLE_FULL_SCREEN, MW_STYLE_PAGE_SHEET, MW_STYLE_FORM_SHEET,
    MW_STYLE_CURRENT_CONTEXT, MW_STYLE_OVER_FULL_SCREEN, MW_STYLE_OVER_CURRENT_CONTEXT, MW_STYLE_CUSTOM
} mw_modal_style;
typedef enum mw_transition {
    MW_TRANSITION_COVER_VERTICAL = 0, MW_TRANSITION_FLIP_HORIZONTAL, MW_TRANSITION_CROSS_DISSOLVE,
    MW_TRANSITION_PARTIAL_CURL, MW_TRANSITION_CUSTOM
} mw_transition;

/* ------------------------------------------------------------------ events */

/** A button of an alert or action sheet. */
typedef struct mw_button {
    mw_str title;
    int32_t style;     /**< mw_button_style, or MW_ABSENT (treat as default) */
    int32_t preferred; /**< 0, 1, or MW_ABSENT */
} mw_button;

/** A button of a modal view. */
typedef struct mw_modal_button {
    mw_str title;
    int32_t role;      /**< mw_modal_role, or MW_ABSENT */
    int32_t reserved;
} mw_modal_button;

/**
 * One decoded, validated event. Every field the wire format defines for any
 * type is here; a field the event did not carry is NULL / MW_ABSENT / 0.
 * Enumerated and boolean fields are int32_t: a value, or MW_ABSENT.
 */
typedef struct mw_event {
    uint32_t type;            /**< mw_event_type */
    uint32_t reserved0;
    mw_str type_name;         /**< the `type` string as sent */
    mw_str session;
    mw_str app;               /**< as sent on this event, or NULL */
    int64_t ts;               /**< event time in ms as judged: never earlier than the session's latest */
    int64_t ts_sent;          /**< event time as sent */
    int64_t seq;              /**< 0 when absent */

    /* presentations */
    mw_str id;
    mw_str title;
    mw_str message;
    const mw_button *buttons; /**< alert / sheet buttons, leading to trailing (left to right, right to left in RTL) */
    uint32_t button_count;
    int32_t has_buttons;      /**< 1 when the `buttons` field was present */
    const mw_modal_button *modal_buttons;
    uint32_t modal_button_count;
    uint32_t text_field_count;
    uint32_t secure_text_field_count;
    int32_t in_popover;       /**< sheet: 0, 1, MW_ABSENT */
    int32_t from_popover;     /**< sheet: 0, 1, MW_ABSENT */
    mw_str background;        /**< sheet appearance name */
    int32_t style;            /**< modal: mw_modal_style or MW_ABSENT */
    int32_t transition;       /**< modal: mw_transition or MW_ABSENT */
    int32_t size_class;       /**< session.start / modal: mw_size_class or MW_ABSENT */

    /* dismissals */
    int32_t button;           /**< index, or MW_ABSENT for null / absent */
    int32_t via;              /**< mw_via or MW_ABSENT */
    int32_t unsaved_changes;  /**< 0, 1, MW_ABSENT */
    int32_t confirmed;        /**< 0, 1, MW_ABSENT */

    /* session.start */
    int32_t device;           /**< mw_device or MW_ABSENT */
    int32_t reserved1;
    mw_str app_version;
    mw_str os;

    /* user.action */
    int32_t control;          /**< mw_control or MW_ABSENT */
    int32_t destructive;      /**< 0, 1, MW_ABSENT */
    mw_str label;

    /* task.progress */
    mw_str task;
    int32_t task_state;       /**< mw_task_state or MW_ABSENT */
    int32_t reserved2;

    /* nav.push / nav.pop */
    mw_str screen;

    /* ---- since ABI 1.5 (check `host->abi_minor >= 5`) ---- */
    /** The language of the event's texts: the event's own `locale`, else its session's, as a
        normalized BCP 47 tag (`de-DE`, `zh-Hans-CN`); NULL when undetermined. */
    mw_str locale;
} mw_event;

/* ------------------------------------------------------------ session view */

typedef enum mw_presentation_kind {
    MW_KIND_ALERT = 0, MW_KIND_SHEET = 1, MW_KIND_MODAL = 2, MW_KIND_POPOVER = 3
} mw_presentation_kind;

/** One entry of a session's presentation stack. */
typedef struct mw_presentation {
    uint32_t kind;            /**< mw_presentation_kind */
    uint32_t reserved;
    mw_str id;
    int64_t ts;               /**< event time it was presented */
    int32_t style;            /**< modal style or MW_ABSENT */
    int32_t transition;       /**< modal transition or MW_ABSENT */
    int32_t size_class;       /**< modal: the effective size class (its own, else the session's) */
    int32_t nav_depth;        /**< nav.push minus nav.pop while this entry was topmost, never below 0 */
    int32_t button_count;     /**< alert / sheet / modal buttons */
    int32_t cancel_index;     /**< alert / sheet: index of the cancel button (rules.md: the first with style
                                   cancel, else the first default-style one titled the presentation language's
                                   Cancel), or MW_ABSENT */
    int32_t destructive_index;/**< alert / sheet: index of the first destructive button, or MW_ABSENT */
    int32_t in_popover;       /**< sheet: 0, 1, MW_ABSENT */
} mw_presentation;

/**
 * The session as it stands after the host applied the current event
 * (a presentation is already on the stack; a dismissal already removed it).
 */
typedef struct mw_session {
    mw_str id;
    mw_str app;               /**< bundle id, "-" when the session never said */
    int32_t device;           /**< mw_device (phone unless session.start said otherwise) */
    int32_t size_class;       /**< mw_size_class */
    int32_t foreground;       /**< 1 unless app.background was the last of the two */
    int32_t modal_depth;      /**< modal.presented views on the stack */
    int32_t max_modal_depth;  /**< the deepest the session has been */
    uint32_t stack_count;
    const mw_presentation *stack; /**< bottom first; stack[stack_count - 1] is topmost */
    int64_t started_ts;       /**< event time of the session's first event */
    int64_t last_ts;          /**< latest event time, the current event's included */
    int64_t previous_ts;      /**< latest event time before the current event, or INT64_MIN */
    int64_t last_user_action_ts;    /**< INT64_MIN when none (the current event excluded) */
    int32_t last_user_action_control; /**< mw_control or MW_ABSENT */
    int32_t tasks_running;    /**< tasks started and not yet finished, failed or cancelled */
    int64_t last_task_finished_ts;  /**< INT64_MIN when none */
    int64_t last_task_failed_ts;    /**< INT64_MIN when none */
    uint64_t events;          /**< events judged in this session, the current one included */
    uint64_t alerts_presented;
    uint64_t presentations;   /**< alerts, sheets and modals presented */
    /** For *.dismissed: the entry the dismissal removed (a copy), else NULL. */
    const mw_presentation *dismissed;
    /* ---- since ABI 1.3 (check `host->abi_minor >= 3`) ---- */
    /** For *.dismissed: the title the removed entry was presented with (its first 320
        bytes at most, cut between characters), so a message can name it; else NULL. */
    mw_str dismissed_title;
} mw_session;

/* ------------------------------------------------------------ host services */

typedef struct mw_context mw_context; /**< opaque, owned by the host */

/** Scope of a counter: this session, or every session of this app. */
#define MW_SCOPE_SESSION 0u
#define MW_SCOPE_APP 1u

/** An earlier event that belongs to a violation's evidence (`events` field). */
typedef struct mw_event_ref {
    mw_str type;              /**< e.g. "alert.presented" */
    int64_t ts;
    mw_str id;                /**< or NULL */
    int64_t seq;              /**< 0 when unknown */
} mw_event_ref;

/** What a rule reports; the host adds the rule's metadata, ids and times. */
typedef struct mw_report {
    mw_str subject;           /**< the presentation id it is about, or NULL */
    mw_str message;           /**< one sentence for a person, with the figures */
    mw_str evidence_json;     /**< a JSON object with the rule's figures, or NULL for {} */
    /** For MW_FIRE_ONCE_PER_KEY / MW_FIRE_ONCE_PER_APP_VALUE: the value it is
        about (a text, a transition name). NULL means the subject. */
    mw_str key;
    /** For MW_FIRE_ONCE_PER_WINDOW: how long to stay quiet after firing (ms). */
    int64_t quiet_ms;
    /** Earlier triggering events, oldest first; the host appends the current event. */
    const mw_event_ref *events;
    uint32_t event_count;
    uint32_t reserved;
    /* ---- since ABI 1.3 (the host reads it only from a module built against 1.3 or later) ---- */
    /** What to do instead, for the person who fixes it: the concrete change where the
        rule can derive it (the corrected title, the button order, the control to use),
        else the guideline's advice in one imperative sentence. NULL: none, and the
        violation's `suggestion` is null. Named as `message` names (violations.md). */
    mw_str suggestion;
} mw_report;

/** A word's capitalization (`mw_word.shape`), by its cased letters. */
typedef enum mw_word_shape {
    MW_SHAPE_LOWERCASE = 0,     /**< `cancel`: no upper-case letter */
    MW_SHAPE_CAPITALIZED = 1,   /**< `Cancel`: upper-case first, lower-case after */
    MW_SHAPE_ALL_CAPS = 2,      /**< `OK`, `PDF`: a letter, none lower-case */
    MW_SHAPE_INNER_CAPITAL = 3, /**< `iCloud`, `FaceTime`: an upper-case letter after the first, some lower-case */
    MW_SHAPE_UNCASED = 4        /**< `404`, `日本`: starts with no cased letter */
} mw_word_shape;

/** `mw_word.flags`: the word starts a sentence (the text's first word, or the first after `.` `!` `?` `…`
    with optional closing quotes, then whitespace). */
#define MW_WORD_STARTS_SENTENCE 1u
/** `mw_word.flags`: a quotation is open once the word is read (its closing mark comes later). */
#define MW_WORD_INSIDE_QUOTATION_AFTER 2u

/**
 * One word of a text (ABI 1.3, `mw_host.words`): a run of letters, digits and
 * apostrophes (`'` `’`), apostrophes at its ends removed; letters are Unicode
 * letters with their combining marks, digits any numeric scalar, emoji never.
 */
typedef struct mw_word {
    uint32_t offset;          /**< its first byte, from the start of the text */
    uint32_t length;          /**< its bytes */
    uint32_t quotation;       /**< 0 outside quotation marks, else the 1-based number of its quotation */
    uint8_t shape;            /**< mw_word_shape */
    uint8_t flags;            /**< MW_WORD_* bits */
    uint16_t reserved;
} mw_word;

/** `mw_words.flags`: a quotation is still open at the end of the text. */
#define MW_WORDS_ENDS_INSIDE_QUOTATION 1u

/** The words of one text, in order (ABI 1.3, `mw_host.words`). */
typedef struct mw_words {
    const mw_word *words;     /**< `count` words; valid until the rule call returns */
    uint32_t count;
    uint32_t flags;           /**< MW_WORDS_* bits */
} mw_words;

/**
 * The words of every text of the current event (ABI 1.3, `mw_call.texts`), as
 * `mw_host.words` gives them one by one: a rule reads a text's list from here
 * by the field it came from, with no call. The host fills the table once per
 * event, when a rule first asks for words (`mw_host.words`); until then
 * `ready` is 0. The lists are valid until the rule call returns.
 */
typedef struct mw_event_texts {
    uint32_t ready;           /**< 1 once the lists below are filled for this event */
    uint32_t reserved;
    mw_words title;           /**< of `mw_event.title` (count 0 when absent or empty) */
    mw_words message;
    mw_words label;
    const mw_words *buttons;  /**< `mw_event.button_count` lists, of `buttons[i].title` */
    const mw_words *modal_buttons; /**< `mw_event.modal_button_count` lists, of `modal_buttons[i].title` */
} mw_event_texts;

/** The parts of a violation a module writes through `mw_host.report_written` (ABI 1.4), in this order. */
typedef enum mw_part {
    MW_PART_MESSAGE = 0,      /**< violations.md `message`: text (`write_text`, `write_int`) */
    MW_PART_EVIDENCE = 1,     /**< `evidence`: members (`write_key`, then one value) */
    MW_PART_SUGGESTION = 2    /**< `suggestion`: text, as the message */
} mw_part;

/** Values for `mw_host.write_literal` (ABI 1.4), in the evidence part. */
typedef enum mw_literal {
    MW_LITERAL_NULL = 0,
    MW_LITERAL_FALSE = 1,
    MW_LITERAL_TRUE = 2,
    MW_LITERAL_ARRAY_BEGIN = 3, /**< opens an array value; its elements follow, each one value */
    MW_LITERAL_ARRAY_END = 4
} mw_literal;

/** Where a module writes a part of a violation (ABI 1.4): opaque, owned by the host,
    valid only during the `mw_write_fn` call it is given to. */
typedef struct mw_writer mw_writer;

/**
 * Writes one part of a violation (ABI 1.4, `mw_host.report_written`): `state` is
 * the module's, as it passed it; `part` an mw_part. Called for each part, in
 * mw_part order, only when the host lets the report through.
 */
typedef void (*mw_write_fn)(void *state, mw_writer *writer, uint32_t part);

/** Log levels for `mw_host.log` (ABI 1.2). */
typedef enum mw_log_level {
    MW_LOG_DEBUG = 0, MW_LOG_INFO = 1, MW_LOG_WARNING = 2, MW_LOG_ERROR = 3
} mw_log_level;

/** Services the host offers to a rule during `on_event`. */
typedef struct mw_host {
    uint32_t struct_size;     /**< sizeof(mw_host) of the host */
    /** Since ABI 1.2: the host's MW_ABI_MINOR (0 in older hosts, where this was
        a reserved field). The fields each minor added are there when it is at
        least that minor. */
    uint32_t abi_minor;
    /**
     * Add `delta` to the rule's counter `key` in `scope` (MW_SCOPE_SESSION or
     * MW_SCOPE_APP) and return the new value; a counter starts at 0. Use
     * delta 0 to read. Keys are private to the rule. Hash strings with
     * mw_hash() to make keys.
     */
    int64_t (*counter_add)(mw_context *ctx, uint32_t scope, uint64_t key, int64_t delta);
    /**
     * Record event time `ts` in the rule's per-session window `key`, forget
     * entries older than `ts - window_ms`, keep at most `keep` newest, and
     * return how many remain (this one included).
     */
    uint32_t (*window_push)(mw_context *ctx, uint64_t key, int64_t ts, int64_t window_ms, uint32_t keep);
    /** Report a violation; the host applies the rule's firing discipline. */
    void (*report)(mw_context *ctx, const mw_report *report);
    /**
     * Since ABI 1.1 (check `struct_size` before using it): whether a report
     * with this subject and key would pass the rule's firing discipline and
     * rate limit now, recording nothing. Lets a rule skip formatting a message
     * and evidence the host would only hold back. 1 yes, 0 no.
     */
    int32_t (*should_report)(mw_context *ctx, mw_str subject, mw_str key);
    /**
     * Since ABI 1.2 (check `abi_minor >= 2`): one line into the daemon's log,
     * with the module's and rule's names attached. `level` is an mw_log_level.
     * Rate-limited per module (lines over the limit are counted and dropped).
     */
    void (*log)(mw_context *ctx, uint32_t level, mw_str message);
    /**
     * Since ABI 1.2: reports a non-fatal error of the module (a setting it cannot
     * use, a resource it cannot reach, an input it cannot judge). The host counts
     * it per module, shows the count in `status` (`module_errors`) and publishes
     * it as the diagnostic `diag/-/module_error`; the module keeps running.
     */
    void (*module_error)(mw_context *ctx, mw_str detail);
    /* ---- since ABI 1.3 (`abi_minor >= 3`): each service may be NULL; check before a call ---- */
    /**
     * The words of `text` when it is one of the current event's texts, given as the
     * event gave it (`mw_event.title`, `message`, `label`, `buttons[i].title`,
     * `modal_buttons[i].title`: the same `ptr` and `len`): returns 1 and fills `*out`.
     * On the event's first request the host tokenizes all of those texts into the
     * table `mw_call.texts` and marks it ready, so the rules of one event share one
     * list per text and later rules read the table without calling. Returns 0 for any
     * other text (a part of one, a text the module made, an absent or empty one): then
     * the module walks the text itself. `out->words` is valid until the rule call returns.
     */
    int32_t (*words)(mw_context *ctx, mw_str text, mw_words *out);
    /** Room for later services of ABI 1.3: NULL. */
    const void *reserved_services[3];
    /* ---- since ABI 1.4 (`abi_minor >= 4`): each service may be NULL; check before a call ---- */
    /**
     * Reports a violation whose message, evidence and suggestion the module writes
     * straight into the host's violation buffer. The host reads `subject`, `key`,
     * `quiet_ms` and `events` of `report` (its `message`, `evidence_json` and
     * `suggestion` are not read), judges it as `should_report` followed by `report`
     * would (the rate limit is applied before the firing is recorded; a report the
     * discipline holds back formatted nothing, and is not counted as suppressed),
     * and when the report goes through calls `write(state, writer, part)` for
     * MW_PART_MESSAGE, MW_PART_EVIDENCE and MW_PART_SUGGESTION in turn, then
     * returns 1; it returns 0 (and calls nothing) for a report held back, so a
     * module needs no `should_report` before it.
     * A message left empty is the rule's summary; a suggestion left empty is null;
     * evidence left empty is `{}`, and evidence written out of order (a value with
     * no key, an array left open) is `{}` too, counted as bad evidence.
     */
    int32_t (*report_written)(mw_context *ctx, const mw_report *report, mw_write_fn write, void *state);
    /**
     * Appends UTF-8 text: in the message or suggestion, the text escaped into the
     * string; in the evidence, one string value (a JSON string, escaped). Absent
     * text (`ptr == NULL`) is nothing in a message and null in the evidence.
     */
    void (*write_text)(mw_writer *writer, mw_str text);
    /** Appends a whole number in decimal: into the text, or as one evidence value. */
    void (*write_int)(mw_writer *writer, int64_t value);
    /** Evidence only: starts the member `key` (a name; escaped); one value must follow. */
    void (*write_key)(mw_writer *writer, mw_str key);
    /** Evidence only: one mw_literal value (null, false, true), or opens or closes an array. */
    void (*write_literal)(mw_writer *writer, uint32_t literal);
    /**
     * Evidence only: the whole evidence object as JSON text (e.g. `{"count":4}`), in
     * place of members; the host checks it is one JSON object, else the evidence is
     * `{}`, counted as bad evidence.
     */
    void (*write_json)(mw_writer *writer, mw_str json);
    /** Room for later services of ABI 1.4: NULL. */
    const void *reserved_writers[2];
    /* ---- since ABI 1.5 (`abi_minor >= 5`): may be NULL; check before a call ---- */
    /**
     * The rule cannot judge the current event's texts in their language (`mw_event.locale`):
     * it has no data for it (no Cancel title of that language, say). The host counts the
     * skipped judgement by rule and language, as it counts the MW_LANGUAGES_ENGLISH rules it
     * does not call; the rule reports nothing for those texts.
     */
    void (*skip_language)(mw_context *ctx);
} mw_host;

/** `mw_call.texts_language` (ABI 1.5): the host decided the bits below for this event. */
#define MW_TEXTS_DECIDED 1u
/** `mw_call.texts_language`: the event's texts are judged as English (rules.md, "Languages"): its
    `locale` is English, or it has none and its texts are not mostly of a non-Latin script. */
#define MW_TEXTS_ENGLISH 2u

/** Everything a rule gets for one event. */
typedef struct mw_call {
    const mw_host *host;
    mw_context *ctx;
    const mw_event *event;
    const mw_session *session;
    const int64_t *params;    /**< the rule's parameter values in force, in declared order */
    uint32_t rule_index;      /**< index of the rule in its module's `rules` */
    uint32_t edition;         /**< one MW_EDITION_* bit: the edition it is judged by */
    /** What `mw_module.on_init` stored (ABI 1.2), else `mw_module.state`, untouched. */
    void *module_state;
    /** Since ABI 1.2 (`host->abi_minor >= 2`): the rule's parameter declarations,
        for lookup by name (`mw_param_by_name`); `params[i]` is the value of `param_decls[i]`. */
    const struct mw_param *param_decls;
    uint32_t param_count;
    /** Since ABI 1.5 (`host->abi_minor >= 5`; a reserved 0 before): MW_TEXTS_* bits, what the host
        decided of the event's language once for every rule of the event that declares languages. */
    uint32_t texts_language;
    /* ---- since ABI 1.3 (`host->abi_minor >= 3`) ---- */
    /** The words of the event's texts, shared by every rule of the event; NULL when the
        host offers none. When `texts->ready` is 0, call `host->words` once (for any of the
        event's texts): the host then fills the whole table. */
    const mw_event_texts *texts;
} mw_call;

/* ------------------------------------------------------------ descriptions */

typedef enum mw_param_type {
    MW_PARAM_INT = 0,         /**< a whole number */
    MW_PARAM_DURATION_MS = 1  /**< a duration; config takes "600s", "15m", "1000ms" */
} mw_param_type;

typedef struct mw_param {
    const char *name;
    uint32_t type;            /**< mw_param_type */
    uint32_t reserved;
    int64_t default_value;    /**< in ms for durations */
    int64_t min_value;        /**< inclusive bounds a config value must respect */
    int64_t max_value;
    const char *meaning;
} mw_param;

/** How often a rule may fire; the host enforces it (violations.md). */
typedef enum mw_fire {
    MW_FIRE_ONCE_PER_SUBJECT = 0,   /**< once per session and presentation id */
    MW_FIRE_ONCE_PER_WINDOW = 1,    /**< then quiet for `mw_report.quiet_ms` in the session */
    MW_FIRE_ONCE_PER_SESSION = 2,
    MW_FIRE_ONCE_PER_KEY = 3,       /**< once per session and `mw_report.key` */
    MW_FIRE_ONCE_PER_APP_VALUE = 4, /**< once per app and `mw_report.key` */
    MW_FIRE_EVERY_TIME = 5
} mw_fire;

/**
 * The languages a rule judges (`mw_rule.languages`, ABI 1.5; rules.md, "Languages").
 */
typedef enum mw_languages {
    /** Undeclared (every module before 1.5): the rule is called for every text, as before. */
    MW_LANGUAGES_UNDECLARED = 0,
    /** Structure only: the verdict does not depend on the language. Called for every text. */
    MW_LANGUAGES_ANY = 1,
    /** English wording: called only when the language is English, or undetermined and the
        event's texts are not mostly of a non-Latin script; otherwise skipped and counted. */
    MW_LANGUAGES_ENGLISH = 2,
    /** Carried into other languages with per-language data: called for every text; the rule
        calls `mw_host.skip_language` for a language it has no data for. */
    MW_LANGUAGES_LOCALIZED = 3
} mw_languages;

/**
 * A worked example: a stream (NDJSON, one event per line) and how many times
 * the rule fires on it in the editions `editions`. The examples are the
 * rule's tests: the host's test suite runs every one through the real loader.
 */
typedef struct mw_example {
    const char *name;
    uint32_t editions;        /**< MW_EDITION_* bits the expectation holds in */
    uint32_t expected;        /**< violations of this rule the stream yields */
    const char *events;       /**< NDJSON */
} mw_example;

typedef struct mw_rule {
    const char *id;           /**< stable id, e.g. "alert-frequency" */
    uint32_t rev;             /**< raised when the rule's verdicts change */
    uint32_t severity;        /**< mw_severity */
    uint32_t editions;        /**< MW_EDITION_* bits it applies in */
    uint32_t event_mask;      /**< MW_EVENT_BIT(type) of the events it wants */
    uint32_t fire;            /**< mw_fire */
    uint32_t param_count;
    const mw_param *params;
    const char *summary;      /**< one line */
    const char *guideline;    /**< short, e.g. "Minimize alerts" */
    const char *source;       /**< HIG edition and section, e.g. "current: Alerts" */
    const mw_example *examples;
    uint32_t example_count;
    /** Since ABI 1.5 (a reserved 0 before; the host reads it only from a module built against
        1.5 or later): the mw_languages it judges. */
    uint32_t languages;
    void (*on_event)(const mw_call *call);
} mw_rule;

/** One `key: value` setting of a module (`modules: {NAME: {key: value}}` in the config). */
typedef struct mw_setting {
    mw_str key;
    mw_str value;             /**< the YAML scalar as written */
} mw_setting;

/** What `mw_module.on_init` gets (ABI 1.2); valid only during the call. */
typedef struct mw_init {
    uint32_t struct_size;     /**< sizeof(mw_init) of the host */
    uint32_t abi_minor;       /**< the host's MW_ABI_MINOR */
    const mw_setting *settings; /**< the module's settings, in the config's order */
    uint32_t setting_count;
    uint32_t reserved;
    /** Only `log` and `module_error` may be called during `on_init`, with `ctx`. */
    const mw_host *host;
    mw_context *ctx;
    /** The module's own description, as its entry returned it. */
    const struct mw_module *module;
} mw_init;

/** `mw_module.on_init` returns one of these; anything else but OK refuses the module. */
#define MW_INIT_OK 0
#define MW_INIT_FAILED 1

typedef struct mw_module {
    uint32_t abi_major;       /**< MW_ABI_MAJOR the module was built against */
    uint32_t abi_minor;       /**< MW_ABI_MINOR the module was built against */
    const char *name;         /**< e.g. "overuse" */
    const char *version;      /**< e.g. "1.0.0" */
    const mw_rule *rules;
    uint32_t rule_count;
    uint32_t reserved;
    void *state;              /**< passed back as mw_call.module_state when there is no on_init */
    /* ---- since ABI 1.2 (the host reads these only when abi_minor >= 2) ---- */
    /**
     * Optional (NULL: none). Called once, before any rule runs, with the
     * module's settings. Store the module's state in `*state` (it becomes every
     * call's `module_state`) and return MW_INIT_OK; on MW_INIT_FAILED the module
     * is not loaded, and the host reports the module by name with the message
     * the module gave through `init->host->log` or `module_error`.
     */
    int32_t (*on_init)(const mw_init *init, void **state);
    /** Optional: releases what `on_init` made; called once, when the host lets go of the module. */
    void (*on_destroy)(void *state);
} mw_module;

/** The one symbol a module exports (MW_ENTRY_SYMBOL). */
typedef const mw_module *(*mw_entry_fn)(void);

/* ----------------------------------------------------------------- helpers */

/** FNV-1a, 64 bit: the hash to make counter keys from bytes. */
static inline uint64_t mw_hash(const void *bytes, size_t len) {
    const unsigned char *p = (const unsigned char *)bytes;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) { h ^= p[i]; h *= 1099511628211ull; }
    return h;
}

/** True when `s` equals the NUL-terminated `lit` byte for byte. */
static inline int mw_str_eq(mw_str s, const char *lit) {
    size_t i = 0;
    if (s.ptr == NULL) return 0;
    for (; lit[i] != '\0'; i++) { if (i >= s.len || s.ptr[i] != lit[i]) return 0; }
    return i == s.len;
}

/**
 * Since ABI 1.2: the value of the rule's parameter `name` in force, by name.
 * Returns 1 and sets `*value`, or 0 when the rule declares no such parameter
 * or the host is older than 1.2 (then use `call->params[i]`, by index).
 */
static inline int mw_param_by_name(const mw_call *call, const char *name, int64_t *value) {
    if (call->host == NULL || call->host->abi_minor < 2 || call->param_decls == NULL) return 0;
    for (uint32_t i = 0; i < call->param_count; i++) {
        const char *a = call->param_decls[i].name, *b = name;
        while (*a != '\0' && *a == *b) { a++; b++; }
        if (*a == *b) { *value = call->params[i]; return 1; }
    }
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* MODALWATCH_MODULE_H */
