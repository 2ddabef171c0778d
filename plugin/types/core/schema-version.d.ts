/**
 * The state.json layout a new session is written with. Files without the field (the original Python store) are
 * version 0, read as 1.
 */
export declare const SCHEMA_VERSION = 1;
/**
 * The layout of a session that holds `decisions` (approve/reject): version 1 plus that field. A session moves to it
 * with its first decision, so every other file stays readable by an agent-session that knows only version 1, and
 * one that holds a decision is refused by such a version for its version number (a clear word), not a stray key.
 */
export declare const DECISIONS_SCHEMA_VERSION = 2;
/**
 * The layout of a session whose decisions say where they came from (`origin` on a decision: the OS user, whether it
 * was recorded at a terminal, whether `by` was claimed): version 2 plus that field. A session moves to it with its
 * first decision recorded by a version that knows it (its older decisions keep no origin), so an agent-session that
 * knows only version 2 refuses it by its version number, not by a stray key.
 */
export declare const DECISION_ORIGIN_SCHEMA_VERSION = 3;
/**
 * The layout of a session whose agent was interrupted by a host failure (`interruption`, and the `interrupted` history
 * entries and `resumed_from.interruption` that come with it): the fields before plus those. A session moves to it
 * with its first interruption, whatever its decisions, so every other file keeps the version its content needs and an
 * agent-session that knows only version 3 refuses an interrupted one by its version number, not by a stray key.
 */
export declare const INTERRUPTION_SCHEMA_VERSION = 4;
/**
 * The layout of a session that says which project it belongs to (`project`: the git remote, a configured name or the
 * folder, core/project.ts): version 4 plus that field. A session carries it from its creation on every store but the
 * file store of its own project folder, which leaves it out (the folder names the project, and its files stay readable
 * by an older agent-session); an older agent-session, which would resume it in any project, refuses it by its version
 * number.
 */
export declare const PROJECT_SCHEMA_VERSION = 5;
/**
 * The layout of a session that names its host (`host`: `codex` or `agent-sdk`, core/host.ts): version 5 plus that
 * field. Only sessions of a host other than Claude Code carry it (none means Claude Code), so Claude Code's files keep
 * their version, and an older agent-session, which would resume a Codex session in a Claude Code delegation, refuses
 * one by its version number.
 */
export declare const HOST_SCHEMA_VERSION = 6;
/**
 * The layout of a session holding a decision that came in by `import` or `copy` (`imported` on a decision: the OS user
 * who imported it, when, from which file or store): version 6 plus that field. What such a decision's `origin` says
 * was recorded elsewhere and is not vouched for here; an older agent-session, which would show it as a decision taken
 * at this machine, refuses the session by its version number.
 */
export declare const IMPORTED_DECISION_SCHEMA_VERSION = 7;
/**
 * The layout of a session that records a sub-agent's permission requests (`permission_requests`, issue 33: the tool
 * and exact input a background sub-agent asked to run, parked for the user's approval, and what became of it):
 * version 6 plus that field. A session moves to it with its first request, so every other file keeps the version its
 * content needs, and an older agent-session, which would not know a grant is spent, refuses it by its version number.
 */
export declare const PERMISSION_SCHEMA_VERSION = 8;
/**
 * The layout of a session whose Claude agent was continued with its context, or offered to be (`continuation`: the
 * choice between continuing the agent itself with SendMessage and priming a fresh one, its reason, the transcript;
 * and the `continue` history entries that come with it): the fields before plus that one (issue 34); versionFor
 * takes the highest a state's fields need.
 */
export declare const CONTINUATION_SCHEMA_VERSION = 9;
/**
 * The layout of a session with a decision made from the page of `agent-session serve` (`via: "browser"` on its
 * origin): the fields before plus that one. Reserved as version 10 (issue 35); versionFor checks it first, so the
 * highest version a session's content needs wins whatever numbers come between.
 */
export declare const BROWSER_ORIGIN_SCHEMA_VERSION = 10;
/**
 * The layout of a session of opencode's (`host: "opencode"`, core/host.ts): version 6 plus that value of the field.
 * An agent-session that knows only version 6 would read the host as an unknown value (a corrupt file); it refuses the
 * session by its version number instead, and never resumes an opencode session in another host's delegation.
 * (Versions 7 to 10 are other fields'; a session takes the highest its content needs.)
 */
export declare const OPENCODE_HOST_SCHEMA_VERSION = 11;
/**
 * The layout of a session whose permission request names the folder its call would run in (`cwd` on a request, issue
 * 40 item 7): the fields before plus that one. An older agent-session would spend such a grant from any folder; it
 * refuses the session by its version number instead.
 */
export declare const PERMISSION_FOLDER_SCHEMA_VERSION = 12;
/**
 * The layout of a session holding a sealed decision or grant (`mac`, issue 40 item 3: the HMAC this machine's user's
 * key made of it; core/seal.ts): the fields before plus that one. An older agent-session, which would honour an
 * unsealed decision or grant that came by git clone, refuses the session by its version number.
 */
export declare const SEALED_SCHEMA_VERSION = 13;
/**
 * The layout of a session that keeps the task it was delegated (`task`, issue 44 item 7 / issue 43 item 1: the
 * delegation's description and the start of its prompt, and a delegation of another task that passed it over): the
 * fields before plus that one. A session moves to it with its first delegation whose task the host gave, so every other
 * file keeps the version its content needs; an older agent-session, which would let another task's delegation take a
 * session parked on its approval or grant, refuses it by its version number.
 */
export declare const TASK_SCHEMA_VERSION = 14;
/**
 * The newest of the versions above: a state document naming a later one is a newer agent-session's, which this one
 * cannot read (a store that classifies documents without parsing them, PostgreSQL's cleanup query, asks this).
 */
export declare const NEWEST_SCHEMA_VERSION = 14;
