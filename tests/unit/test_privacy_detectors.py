"""PII detectors (graphmem/privacy/detectors.py): each kind on positives and near-misses, EN and ZH."""

from __future__ import annotations

import pytest

from graphmem.privacy import detect
from graphmem.privacy.detectors import card_ok, cn_id_ok, iban_ok, luhn_ok


def found(text: str) -> list[tuple[str, str]]:
    return [(d.kind, d.value) for d in detect(text)]


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Mail me at Alice.Smith+tag@example.co.uk, thanks", "EMAIL", "Alice.Smith+tag@example.co.uk"),
        ("我的邮箱是zhang.wei@qq.com。", "EMAIL", "zhang.wei@qq.com"),
        ("Call (555) 123-4567 after six", "PHONE", "(555) 123-4567"),
        ("Call 555-123-4567.", "PHONE", "555-123-4567"),
        ("Call +1 555-123-4567 tomorrow", "PHONE", "+1 555-123-4567"),
        ("London office: +44 20 7946 0958.", "PHONE", "+44 20 7946 0958"),
        ("我的手机是13812345678，有事打给我", "PHONE", "13812345678"),
        ("手机：138 1234 5678", "PHONE", "138 1234 5678"),
        ("也可以打+86 138-1234-5678。", "PHONE", "+86 138-1234-5678"),
        ("座机010-12345678转8001", "PHONE", "010-12345678"),
        ("深圳(0755)1234567", "PHONE", "(0755)1234567"),
        ("card 4111 1111 1111 1111 expires soon", "CARD", "4111 1111 1111 1111"),
        ("Mastercard 5555-5555-5555-4444", "CARD", "5555-5555-5555-4444"),
        ("amex 3782 822463 10005", "CARD", "3782 822463 10005"),
        ("银联卡6212345678901232", "CARD", "6212345678901232"),
        ("身份证号11010519491231002X。", "CN_ID", "11010519491231002X"),
        ("ID 440524188001010014 on file", "CN_ID", "440524188001010014"),
        ("IBAN DE89 3704 0044 0532 0130 00, please", "IBAN", "DE89 3704 0044 0532 0130 00"),
        ("pay to GB82WEST12345698765432", "IBAN", "GB82WEST12345698765432"),
        ("账户 FR1420041010050500013M02606", "IBAN", "FR1420041010050500013M02606"),
        ("ssh to 192.168.1.10 now", "IP", "192.168.1.10"),
        ("the server 10.0.0.1.", "IP", "10.0.0.1"),
        ("IPv6 2001:db8::8a2e:370:7334 is ours", "IP", "2001:db8::8a2e:370:7334"),
        ("服务器地址是fe80::1ff:fe23:4567:890a，别外传", "IP", "fe80::1ff:fe23:4567:890a"),
    ],
)
def test_each_detector_finds_its_kind(text: str, kind: str, value: str) -> None:
    assert found(text) == [(kind, value)]


@pytest.mark.parametrize(
    "text",
    [
        "version 1.2.3.4.5 shipped",  # a version, not an address
        "upgrade to v1.2.3.4 today",
        "we met on 2024-01-15, 2024/01/15 and 2024.01.15",
        "我们2024年1月15日见",
        "order ORD-2024-000123 and #5551234567 arrived",
        "订单号20240115000123已发货",
        "tracking 1Z999AA10123456784",
        "meeting at 12:30:45, MAC 00:1A:2B:3C:4D:5E, C++ std::vector",
        "bad card 4111 1111 1111 1112",  # Luhn fails
        "16 digits 1234 5678 9012 3456",  # no issuer, and Luhn fails
        "身份证11010519491231002Y无效",  # bad check character
        "ID 110105194902301234 is no date",  # 30 February
        "IBAN DE89 3704 0044 0532 0130 01",  # mod-97 fails
        "GB82WEST1234569876543",  # one character short for GB
        "octets 256.1.1.1 and 1.2.3",
        "email someone at example dot com, or @handle",
        "a..b@example.com is malformed",
        "price 1,234,567.89 yuan, 人口14亿",
    ],
)
def test_near_misses_are_left_alone(text: str) -> None:
    assert found(text) == []


def test_several_values_in_one_text_keep_their_order_and_do_not_overlap() -> None:
    text = "张伟，电话13812345678，邮箱13812345678@163.com，卡号4111111111111111，IP 8.8.8.8。"
    assert [k for k, _ in found(text)] == ["PHONE", "EMAIL", "CARD", "IP"]
    assert found(text)[1] == ("EMAIL", "13812345678@163.com")  # the longer span wins


def test_spellings_of_one_value_share_a_canonical_form() -> None:
    canon = {d.canonical for d in detect("13812345678 / +86 138-1234-5678 / 0086 138 1234 5678")}
    assert canon == {"+8613812345678"}
    assert {d.canonical for d in detect("(555) 123-4567 or +1 555 123 4567")} == {"+15551234567"}
    assert {d.canonical for d in detect("Bob@Example.com bob@example.COM")} == {"bob@example.com"}


def test_validators() -> None:
    assert luhn_ok("79927398713") and not luhn_ok("79927398710")
    assert card_ok("4111111111111111") and not card_ok("1111111111111117")  # no issuer
    assert not card_ok("0000000000000000")
    assert cn_id_ok("11010519491231002x") and not cn_id_ok("11010519491231002Y")
    assert iban_ok("NL91ABNA0417164300") and not iban_ok("NL91ABNA0417164301")
