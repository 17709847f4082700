"""The A2A 1.0 AgentCard's fields, as the canonicalizations of a card signature need them.

Read from ``a2a.proto`` (package ``lf.a2a.v1``): for each message, each field's JSON name,
whether it is REQUIRED (``google.api.field_behavior``), whether it has explicit presence
(``optional`` scalars and message fields) and its shape. Section 8.4.1 keeps REQUIRED
fields and explicitly present ones, and removes other fields at their default; ProtoJSON
(the a2a-sdk's rule) omits fields at their default and fields it does not know.
``tests/trust/test_card_canon.py`` holds this table to the a2a-sdk's descriptors.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from sia_tui.core.constants import CARD_SIGNATURES


class Shape(Enum):
    """How a field's JSON value is read."""

    #: A string, number or bool with implicit presence: its default ("", 0, false) is unset.
    SCALAR = "scalar"
    #: A proto3 ``optional`` scalar: present in the JSON means set, even to its default.
    OPTIONAL_SCALAR = "optional"
    #: A message: present means set (explicit presence), even when empty.
    MESSAGE = "message"
    #: A repeated field: empty is its default.
    LIST = "list"
    #: A map: empty is its default.
    MAP = "map"
    #: ``google.protobuf.Struct``: free JSON; present means set.
    STRUCT = "struct"


SCALAR, OPTIONAL_SCALAR, MESSAGE = Shape.SCALAR, Shape.OPTIONAL_SCALAR, Shape.MESSAGE
LIST, MAP, STRUCT = Shape.LIST, Shape.MAP, Shape.STRUCT


@dataclass(frozen=True)
class Field:
    """One field of a message."""

    shape: Shape
    required: bool
    #: The message of a message field, of a list's items or of a map's values.
    of: str | None = None
    #: The JSON type of a scalar, of a list's items or of a map's values when ``of`` is None
    #: (the wire schema reads it; every such field of the card is a string or a bool).
    kind: str = "string"

    @property
    def explicit(self) -> bool:
        """True when presence in the JSON means the field was set (8.4.1 keeps it)."""
        return self.shape in (OPTIONAL_SCALAR, MESSAGE, STRUCT)


#: The message a card is.
CARD = "AgentCard"
#: The card member that holds its signatures (``AgentCardSignature`` entries).
SIGNATURES = CARD_SIGNATURES

#: Message name -> JSON field name -> Field (a2a.proto, A2A 1.0).
MESSAGES: dict[str, dict[str, Field]] = {
    "AgentCard": {
        "name": Field(SCALAR, True),
        "description": Field(SCALAR, True),
        "supportedInterfaces": Field(LIST, True, of="AgentInterface"),
        "provider": Field(MESSAGE, False, of="AgentProvider"),
        "version": Field(SCALAR, True),
        "documentationUrl": Field(OPTIONAL_SCALAR, False),
        "capabilities": Field(MESSAGE, True, of="AgentCapabilities"),
        "securitySchemes": Field(MAP, False, of="SecurityScheme"),
        "securityRequirements": Field(LIST, False, of="SecurityRequirement"),
        "defaultInputModes": Field(LIST, True),
        "defaultOutputModes": Field(LIST, True),
        "skills": Field(LIST, True, of="AgentSkill"),
        "signatures": Field(LIST, False, of="AgentCardSignature"),
        "iconUrl": Field(OPTIONAL_SCALAR, False),
    },
    "AgentInterface": {
        "url": Field(SCALAR, True),
        "protocolBinding": Field(SCALAR, True),
        "tenant": Field(SCALAR, False),
        "protocolVersion": Field(SCALAR, True),
    },
    "AgentProvider": {
        "url": Field(SCALAR, True),
        "organization": Field(SCALAR, True),
    },
    "AgentCapabilities": {
        "streaming": Field(OPTIONAL_SCALAR, False, kind="boolean"),
        "pushNotifications": Field(OPTIONAL_SCALAR, False, kind="boolean"),
        "extensions": Field(LIST, False, of="AgentExtension"),
        "extendedAgentCard": Field(OPTIONAL_SCALAR, False, kind="boolean"),
    },
    "AgentExtension": {
        "uri": Field(SCALAR, False),
        "description": Field(SCALAR, False),
        "required": Field(SCALAR, False, kind="boolean"),
        "params": Field(STRUCT, False),
    },
    "SecurityScheme": {
        "apiKeySecurityScheme": Field(MESSAGE, False, of="APIKeySecurityScheme"),
        "httpAuthSecurityScheme": Field(MESSAGE, False, of="HTTPAuthSecurityScheme"),
        "oauth2SecurityScheme": Field(MESSAGE, False, of="OAuth2SecurityScheme"),
        "openIdConnectSecurityScheme": Field(MESSAGE, False, of="OpenIdConnectSecurityScheme"),
        "mtlsSecurityScheme": Field(MESSAGE, False, of="MutualTlsSecurityScheme"),
    },
    "APIKeySecurityScheme": {
        "description": Field(SCALAR, False),
        "location": Field(SCALAR, True),
        "name": Field(SCALAR, True),
    },
    "HTTPAuthSecurityScheme": {
        "description": Field(SCALAR, False),
        "scheme": Field(SCALAR, True),
        "bearerFormat": Field(SCALAR, False),
    },
    "OAuth2SecurityScheme": {
        "description": Field(SCALAR, False),
        "flows": Field(MESSAGE, True, of="OAuthFlows"),
        "oauth2MetadataUrl": Field(SCALAR, False),
    },
    "OAuthFlows": {
        "authorizationCode": Field(MESSAGE, False, of="AuthorizationCodeOAuthFlow"),
        "clientCredentials": Field(MESSAGE, False, of="ClientCredentialsOAuthFlow"),
        "implicit": Field(MESSAGE, False, of="ImplicitOAuthFlow"),
        "password": Field(MESSAGE, False, of="PasswordOAuthFlow"),
        "deviceCode": Field(MESSAGE, False, of="DeviceCodeOAuthFlow"),
    },
    "AuthorizationCodeOAuthFlow": {
        "authorizationUrl": Field(SCALAR, True),
        "tokenUrl": Field(SCALAR, True),
        "refreshUrl": Field(SCALAR, False),
        "scopes": Field(MAP, True),
        "pkceRequired": Field(SCALAR, False, kind="boolean"),
    },
    "ClientCredentialsOAuthFlow": {
        "tokenUrl": Field(SCALAR, True),
        "refreshUrl": Field(SCALAR, False),
        "scopes": Field(MAP, True),
    },
    "ImplicitOAuthFlow": {
        "authorizationUrl": Field(SCALAR, False),
        "refreshUrl": Field(SCALAR, False),
        "scopes": Field(MAP, False),
    },
    "PasswordOAuthFlow": {
        "tokenUrl": Field(SCALAR, False),
        "refreshUrl": Field(SCALAR, False),
        "scopes": Field(MAP, False),
    },
    "DeviceCodeOAuthFlow": {
        "deviceAuthorizationUrl": Field(SCALAR, True),
        "tokenUrl": Field(SCALAR, True),
        "refreshUrl": Field(SCALAR, False),
        "scopes": Field(MAP, True),
    },
    "OpenIdConnectSecurityScheme": {
        "description": Field(SCALAR, False),
        "openIdConnectUrl": Field(SCALAR, True),
    },
    "MutualTlsSecurityScheme": {
        "description": Field(SCALAR, False),
    },
    "SecurityRequirement": {
        "schemes": Field(MAP, False, of="StringList"),
    },
    "StringList": {
        "list": Field(LIST, False),
    },
    "AgentSkill": {
        "id": Field(SCALAR, True),
        "name": Field(SCALAR, True),
        "description": Field(SCALAR, True),
        "tags": Field(LIST, True),
        "examples": Field(LIST, False),
        "inputModes": Field(LIST, False),
        "outputModes": Field(LIST, False),
        "securityRequirements": Field(LIST, False, of="SecurityRequirement"),
    },
    "AgentCardSignature": {
        "protected": Field(SCALAR, True),
        "signature": Field(SCALAR, True),
        "header": Field(STRUCT, False),
    },
}
