"""Steps 1-3: retrieve the card, select the advertised skill, call describe_skill."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from sia_tui.core.a2a.extended_card import what_it_adds
from sia_tui.core.a2a.views import (
    AgentCard,
    BindingChoice,
    Interface,
    SchemaInterfaceAd,
    SkillBinding,
)
from sia_tui.core.bounded import merge_warnings
from sia_tui.core.codes import DetectedBy, ErrorCode
from sia_tui.core.constants import DESCRIBE_SKILL, DIGEST_MEMBER, DOCUMENT_MEMBER
from sia_tui.core.engine.context import EngineContext
from sia_tui.core.engine.outcome import StepFailed, transport_failure
from sia_tui.core.engine.steps.trust import verify_card_signatures
from sia_tui.core.errors import SiaError
from sia_tui.core.findings import Severity
from sia_tui.core.needs import Need, word, words
from sia_tui.core.redaction.userinfo import target_identity
from sia_tui.core.run.answers import advertised_skills
from sia_tui.core.run.evidence import Blame, CardEvidence, FailureCategory, NextAction, Party
from sia_tui.core.run.read_model import Run, StepResult
from sia_tui.core.task_state import TaskState

if TYPE_CHECKING:  # the cache loads with the first run that uses it (--cache)
    from sia_tui.core.a2a.task_views import Message, Task
    from sia_tui.core.engine.cache import CachedDocument, CacheKey


def _wanted(binding: str) -> str:
    """The card's protocolBinding for the user's choice (any other name is taken as is)."""
    try:
        return BindingChoice(binding).protocol_binding
    except ValueError:
        return binding


def choose_interface(card: AgentCard, binding: str | None) -> Interface | None:
    """The user's binding if given, else the card's first callable interface (WIRE.md)."""
    wanted = _wanted(binding) if binding else None
    for iface in card.interfaces:
        if iface.callable and (wanted is None or iface.binding == wanted):
            return iface
    return None


async def retrieve_card(ctx: EngineContext, result: StepResult) -> None:
    """CP1: fetch the card and pick the A2A endpoint."""
    run = ctx.run
    try:
        fetched = await ctx.client.fetch_card(run.target.location)
    except SiaError as exc:
        # An ambiguous origin is refused before anything is sent: with no exchange
        # recorded, the URL is the one the user gave; after a redirect, the agent's.
        author = Party.AGENT if result.exchanges else Party.CALLER
        what = "could not retrieve the Agent Card"
        raise transport_failure(what, exc, url_author=author) from exc
    card = fetched.card
    run.card, run.card_url = card, fetched.url
    merge_warnings(run.warnings, card.warnings)
    evidence = CardEvidence(
        card_url=fetched.url,
        agent=card.name,
        card_dialect=card.card_dialect,
        interfaces=[i.badge + " " + i.url for i in card.interfaces],
        extension=card.schema_interface is not None,
        warnings=list(card.warnings),
    )
    result.evidence = evidence
    # Before anything the card says is used: a required signature gates the endpoint too.
    verify_card_signatures(run, result, evidence, fetched.exchange.response_body)
    iface = choose_interface(card, run.target.binding)
    if iface is None:
        wanted = f" {run.target.binding}" if run.target.binding else ""
        # What the card does declare: the user's next choice (or the agent's mistake).
        declared = ", ".join(dict.fromkeys(f"{i.badge} {i.url}" for i in card.interfaces))
        message = (
            f"the card declares no callable{wanted} interface; it declares "
            + (declared or "no interface at all")
            + ("" if wanted else " (sia-tui calls JSON-RPC, HTTP+JSON and gRPC)")
        )
        raise StepFailed(
            message,
            hint="Publish a JSON-RPC, HTTP+JSON or gRPC interface in the card's "
            "supportedInterfaces"
            + (", or choose a binding the card declares." if wanted and declared else "."),
            blame=Blame(
                party=Party.CALLER if wanted and declared else Party.AGENT, statement=message
            ),
        )
    run.interface = iface
    evidence.selected_interface = f"{iface.badge} {iface.url}"
    result.message = f"{card.name}: using {iface.badge} at {iface.url}"
    await use_extended_card(ctx, iface, evidence)


async def use_extended_card(ctx: EngineContext, iface: Interface, evidence: CardEvidence) -> None:
    """A2A 1.0 section 3.1.11: an authenticated client fetches the extended card, and the
    procedure goes on with it (it is what the agent says to this caller); the public card's
    signatures and the chosen interface stay as step 1 checked them."""
    run, public = ctx.run, ctx.run.card
    if public is None or not public.extended_card:
        return
    if not run.credentials:  # names the user gave (a replay keeps the recorded ones)
        run.warnings.append(
            "the card offers an extended card to authenticated clients; give credentials "
            f"({words(Need.OAUTH2_CLIENT, Need.API_KEY, Need.BEARER)}) to fetch it"
        )
        return
    try:
        extended = await ctx.client.extended_card(iface)
    except SiaError as exc:
        run.warnings.append(f"the extended Agent Card was not fetched: {exc}")
        return
    evidence.extended_card = what_it_adds(public, extended)
    merge_warnings(run.warnings, extended.warnings)
    run.card = extended
    run.warnings.append(f"using the extended Agent Card: {evidence.extended_card}")


async def select_skill(ctx: EngineContext, result: StepResult) -> None:
    """CP2: describe_skill and the skill are advertised; take their version and digest."""
    # Steps 2-11's evidence loads with step 2: step 1 alone (the card on screen) builds none.
    from sia_tui.core.run.later_evidence import SkillEvidence

    run = ctx.run
    card = run.card
    assert card is not None
    ad = _advertisement(card, result)
    domain = advertised_skills(card)
    skill_id = _chosen_skill(run, domain)
    binding = _skill_binding(run, card, ad, skill_id, domain)
    run.skill_id, run.skill_version = skill_id, binding.skill_version
    run.digests.advertised = binding.interface_digest
    result.evidence = SkillEvidence(
        skill_id=skill_id,
        skill_version=binding.skill_version,
        interface_digest=binding.interface_digest,
        advertised_skills=domain,
        extension_required=ad.required,
    )
    result.message = (
        f"{skill_id} {binding.skill_version} advertised with {binding.interface_digest}"
    )


def _advertisement(card: AgentCard, result: StepResult) -> SchemaInterfaceAd:
    """The card's schema-interface extension, well formed, with describe_skill listed."""
    ad = card.schema_interface
    if ad is None:
        # RULES ADV4: no extension means no conformance; never infer schemas.
        raise StepFailed(
            "the card does not advertise the schema-interface extension, so the agent does not "
            "provide this procedure; its schemas must not be inferred from skill descriptions "
            "(RULES ADV4)",
            code=ErrorCode.SKILL_NOT_ADVERTISED,
            hint="Advertise the schema-interface extension in the Agent Card's capabilities, "
            "with a binding for each schema-governed skill (RULES ADV1).",
            blame=Blame(
                party=Party.AGENT,
                statement="the Agent Card does not advertise the schema-interface extension",
            ),
        )
    # Loaded by step 2: step 1 alone (the card on screen) does not need the document checks.
    from sia_tui.core.interface.document import check_advertisement

    findings = check_advertisement(ad.raw)  # RULES ADV1, ADV3
    result.findings.extend(findings)
    if any(f.severity is Severity.ERROR for f in findings):
        raise StepFailed(
            "the schema-interface advertisement in the card is malformed",
            code=ErrorCode.INTERFACE_INVALID,
            findings=findings,
            hint="Fix the extension entry at the located pointers (RULES ADV1, ADV3).",
            blame=Blame(
                party=Party.AGENT,
                statement="the Agent Card's schema-interface advertisement is malformed",
            ),
            next_action=NextAction.SHOW_EXCHANGE,
        )
    if card.skill(DESCRIBE_SKILL) is None:
        # RULES ADV2, CP13: found before describe_skill, so nothing is sent.
        raise StepFailed(
            "the card's skills do not include describe_skill (RULES ADV2)",
            code=ErrorCode.SKILL_NOT_ADVERTISED,
            hint="List describe_skill among the Agent Card's skills: without it no client "
            "can obtain the Skill Interface Document (RULES ADV2).",
            blame=Blame(
                party=Party.AGENT,
                statement="the Agent Card does not list describe_skill among its skills",
            ),
        )
    return ad


def _chosen_skill(run: Run, domain: list[str]) -> str:
    """The user's skill, or the run's default one; without either the user must choose."""
    skill_id = run.target.skill_id
    if skill_id is None:
        skill_id = run.answers.default_skill
        if skill_id is None:
            listed = ", ".join(domain) if domain else "no domain skill"
            message = f"choose a skill; the extension advertises {listed}"
            raise StepFailed(
                message,
                hint="Choose one of the skills the extension advertises.",
                category=FailureCategory.USAGE,
                blame=Blame(party=Party.CALLER, statement=message),
                next_action=NextAction.CHOOSE_SKILL,
            )
    return skill_id


def _skill_binding(
    run: Run, card: AgentCard, ad: SchemaInterfaceAd, skill_id: str, domain: list[str]
) -> SkillBinding:
    """The extension's binding of ``skill_id``, which the card must list too (RULES CP2)."""
    binding = next((b for b in ad.bindings if b.skill_id == skill_id), None)
    if binding is None or card.skill(skill_id) is None:
        where = "the extension's skills" if binding is None else "the card's skills"
        message = f"skill {skill_id!r} is not advertised in {where} (RULES CP2, CP13)"
        chosen = run.target.skill_id is not None and skill_id not in domain
        if chosen:  # the user's choice: what they could have chosen
            message += "; it advertises " + (", ".join(domain) if domain else "no domain skill")
        raise StepFailed(
            message,
            code=ErrorCode.SKILL_NOT_ADVERTISED,
            hint=(
                "Choose a skill the extension advertises: " + ", ".join(domain)
                if chosen and domain
                else "Advertise the skill both in the card's skills and in the extension's "
                "bindings (RULES CP2)."
            ),
            blame=Blame(party=Party.CALLER if chosen else Party.AGENT, statement=message),
            next_action=NextAction.CHOOSE_SKILL if chosen else NextAction.REPORT,
        )
    return binding


def cache_key(ctx: EngineContext) -> CacheKey:
    """The CP12 binding of the current run."""
    from sia_tui.core.engine.cache import CacheKey

    run = ctx.run
    return CacheKey(
        target_identity(run.card_url or run.target.location),
        run.skill_id or "",
        run.skill_version or "",
        run.digests.advertised or "",
    )


async def settle(ctx: EngineContext, reply: Task | Message, purpose: str) -> Task:
    """A task in a final state: poll one that is still running (bounded by the options)."""
    from sia_tui.core.a2a.task_views import Message  # not loaded by step 1 (no task)

    if isinstance(reply, Message):
        message = f"the agent answered {purpose} with a bare Message, not a Task"
        raise StepFailed(
            message,
            hint="A schema-governed skill must answer with a Task (RULES DS2, INV5).",
            blame=Blame(party=Party.AGENT, statement=message),
        )
    if reply.terminal:
        return reply
    assert ctx.run.interface is not None
    try:
        return await ctx.client.poll(ctx.run.interface, reply.id)
    except SiaError as exc:
        raise transport_failure(
            f"polling the {purpose} task failed", exc, task_sent=purpose == "invoke"
        ) from exc


def describe_payload(task: Task) -> dict[str, Any]:
    """RULES DS2: exactly one Artifact named describe_skill with a single Data Part."""
    artifacts = [a for a in task.artifacts if a.name == DESCRIBE_SKILL]
    if len(task.artifacts) != 1 or len(artifacts) != 1:
        _bad_payload(
            f"expected exactly one artifact named describe_skill, got "
            f"{[a.name for a in task.artifacts]} (RULES DS2)"
        )
    data = artifacts[0].data_parts()
    if len(artifacts[0].parts) != 1 or len(data) != 1 or not isinstance(data[0], dict):
        _bad_payload(
            "the describe_skill artifact must hold a single data part with an object (RULES DS2)"
        )
    payload = data[0]
    if not isinstance(payload.get(DOCUMENT_MEMBER), dict) or DIGEST_MEMBER not in payload:
        _bad_payload(
            f"the describe_skill data lacks {DOCUMENT_MEMBER!r} (an object) or "
            f"{DIGEST_MEMBER!r} (RULES DS2)"
        )
    return payload


def _bad_payload(message: str) -> NoReturn:
    raise StepFailed(
        message,
        code=ErrorCode.INTERFACE_INVALID,
        hint="describe_skill must complete with exactly one artifact named describe_skill "
        "holding one data part: the document and its interface_digest (RULES DS2).",
        blame=Blame(party=Party.AGENT, statement=message),
        next_action=NextAction.SHOW_EXCHANGE,
    )


def _cache_hit(ctx: EngineContext) -> tuple[CacheKey, CachedDocument] | None:
    """The cached document bound to this run (RULES CP12), when the run uses the cache."""
    if not ctx.cache:
        return None
    key = cache_key(ctx)
    hit = ctx.cache.get(key)
    return None if hit is None else (key, hit)


async def describe(ctx: EngineContext, result: StepResult) -> None:
    """CP3: fetch the document with describe_skill, or reuse a bound cache entry (CP12)."""
    from sia_tui.core.run.later_evidence import DescribeEvidence

    run = ctx.run
    assert run.interface is not None and run.skill_id is not None
    cached = _cache_hit(ctx)
    if cached is not None:
        key, hit = cached
        run.document, run.digests.returned, run.from_cache = hit.document, hit.returned_digest, True
        result.evidence = DescribeEvidence(
            from_cache=True, returned_digest=hit.returned_digest, cache_key=dict(key.__dict__)
        )
        result.message = (
            f"document reused from the cache ({word(Need.CACHE)}), bound to this target, skill, "
            "version "
            "and digest (RULES CP12); describe_skill was not called"
        )
        return
    # RULES DS1, DS5: only the skill id; no version range is inferred or negotiated in-band.
    data = {"skill": DESCRIBE_SKILL, "arguments": {"skill_id": run.skill_id}}
    try:
        reply = await ctx.client.send(run.interface, data, purpose="describe_skill")
    except SiaError as exc:
        raise transport_failure("describe_skill failed", exc) from exc
    from sia_tui.core.a2a.task_views import Task  # loaded by the reply just read

    evidence = DescribeEvidence()
    if isinstance(reply, Task):  # named before polling: a passing deadline cancels it by id
        evidence.task_id, evidence.state = reply.id, reply.state
        result.evidence = evidence
    task = await settle(ctx, reply, "describe_skill")
    evidence.task_id, evidence.state = task.id, task.state
    result.evidence = evidence
    if task.state != TaskState.COMPLETED:
        from sia_tui.core.engine.steps.remote_errors import read_remote_error  # on failure

        error = read_remote_error(task)
        result.findings.extend(error.findings)
        what = f"describe_skill ended {task.state}: {error.code or 'no code'}"
        raise StepFailed(
            what + (f": {error.message}" if error.message else ""),
            code=error.code,
            origin=DetectedBy.REMOTE,
            findings=error.findings,
            category=None if error.code else FailureCategory.REMOTE,
            blame=Blame(party=Party.AGENT, statement=f"the agent's {what}"),
            next_action=NextAction.SHOW_EXCHANGE,
        )
    payload = describe_payload(task)
    run.document = payload[DOCUMENT_MEMBER]
    returned = payload[DIGEST_MEMBER]
    run.digests.returned = returned if isinstance(returned, str) else repr(returned)
    evidence.returned_digest = run.digests.returned
    result.message = f"document received for {run.skill_id} (task {task.id})"


def remember(ctx: EngineContext) -> None:
    """Cache the document once steps 4-6 passed (CP12)."""
    run = ctx.run
    if ctx.cache is not None and not run.from_cache and run.document is not None:
        from sia_tui.core.engine.cache import CachedDocument

        ctx.cache.put(cache_key(ctx), CachedDocument(run.digests.returned or "", run.document))
