"""The Bot API methods the fake server implements, with the real server's answers and error texts.

Each handler takes the validated, decoded parameters and returns the `result`, or raises ApiError. Methods in the
spec but not here answer 501 and count as a rejection, so a test notices when the gateway uses something new.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .admin import AdminMethods
from .commands import CommandMethods
from .messages import MessageMethods
from .topics import TopicMethods
from .updates import UpdateMethods
from .world import World


class Methods(MessageMethods, AdminMethods, TopicMethods, CommandMethods, UpdateMethods):
    def __init__(self, world: World) -> None:
        super().__init__(world)
        self.handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "getMe": lambda p: self.w.bot,
            "logOut": lambda p: True,
            "close": lambda p: True,
            "setMyCommands": self.set_commands,
            "getMyCommands": self.get_commands,
            "deleteMyCommands": self.delete_commands,
            "sendMessage": self.send_message,
            "sendPhoto": self.send_photo,
            "sendDocument": self.send_document,
            "editMessageText": self.edit_text,
            "editMessageCaption": self.edit_caption,
            "editMessageMedia": self.edit_media,
            "editMessageReplyMarkup": self.edit_markup,
            "deleteMessage": self.delete_message,
            "pinChatMessage": self.pin,
            "unpinChatMessage": self.unpin,
            "setChatPermissions": self.set_permissions,
            "restrictChatMember": self.restrict,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "getChatAdministrators": self.get_admins,
            "createForumTopic": self.create_topic,
            "editForumTopic": self.edit_topic,
            "closeForumTopic": self.close_topic,
            "reopenForumTopic": self.reopen_topic,
            "deleteForumTopic": self.delete_topic,
            "answerCallbackQuery": self.answer_callback,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.webhook_info,
        }
