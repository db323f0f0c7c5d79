"""Traditional Chinese read as simplified: a character table, one character for one, so a sentence
keeps its length and every span found in the simplified text is the same span of the original.

``simplified(text)`` maps the traditional characters of everyday speech (grammar words, the verbs
of moving, working and studying, time words, corrections, common name characters) to their
simplified forms; the Chinese rules parse that, and the values they find are read back from the
original text (``original``), so 蘇州 stays 蘇州 in the graph. Full-width and ASCII punctuation are
left alone (the rules read both).
"""

from __future__ import annotations

_PAIRS = (
    "這这 們们 個个 過过 還还 經经 從从 後后 來来 裡里 裏里 為为 於于 與与 對对 說说 説说 話话 錯错 誤误 應应 該该 "
    "當当 時时 間间 現现 歲岁 幾几 點点 週周 禮礼 節节 號号 曆历 個个 兩两 萬万 億亿 麼么 嗎吗 呢呢 "
    "搬搬 遷迁 離离 開开 職职 辭辞 聘聘 進进 選选 轉转 調调 派派 駐驻 實实 習习 畢毕 業业 學学 讀读 "
    "書书 試试 考考 務务 員员 總总 經经 師师 醫医 護护 會会 計计 術术 銷销 據据 產产 專专 "
    "場场 廠厂 東东 區区 縣县 鎮镇 鄉乡 園园 莊庄 灣湾 臺台 島岛 門门 廣广 陽阳 陰阴 嶺岭 蘇苏 "
    "滬沪 遼辽 寧宁 齊齐 魯鲁 豐丰 灤滦 澤泽 濟济 漢汉 鄭郑 張张 陳陈 劉刘 楊杨 黃黄 趙赵 吳吴 "
    "孫孙 馬马 許许 韓韩 馮冯 鄧邓 蕭萧 葉叶 蔣蒋 盧卢 錢钱 賈贾 龍龙 鄒邹 龔龚 顧顾 譚谭 薛薛 "
    "麗丽 偉伟 強强 剛刚 軍军 傑杰 紅红 華华 輝辉 鵬鹏 亞亚 僑侨 鳳凤 玲玲 靜静 潔洁 穎颖 "
    "團团 銀银 鐵铁 車车 機机 電电 網网 訊讯 雲云 騰腾 讯讯 聯联 億亿 動动 寶宝 遠远 達达 "
    "營营 銷销 貿贸 創创 藥药 藝艺 館馆 報报 際际 傳传 媒媒 證证 險险 資资 貨货 運运 輸输 "
    "後后 剛刚 纔才 才才 將将 準准 備备 劃划 畫画 夠够 體体 麼么 沒没 無无 別别 並并 "
    "給给 讓让 叫叫 問问 聽听 覺觉 認认 識识 記记 憶忆 寫写 講讲 錄录 歡欢 愛爱 喜喜 "
    "買买 賣卖 換换 換换 買买 層层 處处 單单 位位 屬属 雖虽 然然 卻却 雙双 親亲 戚戚 "
    "媽妈 爺爷 奶奶 孫孙 兒儿 婦妇 夫夫 妻妻 姐姐 妹妹 哥哥 弟弟 嬸婶 舅舅 姨姨 "
    "裝装 飾饰 發发 髮发 鬆松 壓压 據据 邊边 頭头 臉脸 舊旧 新新 老老 鄰邻 居居 "
    "買买 貓猫 狗狗 養养 魚鱼 鳥鸟 隻只 條条 頓顿 飯饭 麵面 湯汤 雞鸡 鴨鸭 "
    "長长 門门 問问 閒闲 間间 關关 闆板 幫帮 帶带 邀邀 約约 紀纪 統统 組组 織织 線线 "
    "終终 給给 續续 繼继 結结 絡络 絕绝 細细 經经 營营 環环 現现 獎奖 狀状 況况 "
    "優优 異异 勞劳 務务 勵励 導导 領领 題题 額额 顯显 願愿 頂顶 項项 順顺 預预 "
    "設设 計计 訂订 認认 討讨 論论 議议 評评 調调 談谈 謝谢 請请 讀读 誰谁 變变 "
    "賓宾 貴贵 費费 資资 質质 購购 賺赚 貸贷 賬账 財财 負负 敗败 "
    "陸陆 隊队 際际 陣阵 陳陈 隱隐 險险 "
    "夢梦 歸归 廳厅 廈厦 廁厕 廟庙 廢废 應应 鄉乡 鄰邻 "
    "義义 樂乐 樣样 樓楼 標标 橋桥 權权 榮荣 槍枪 構构 極极 檢检 "
    "氣气 漲涨 滿满 濱滨 灣湾 溫温 潤润 淺浅 濕湿 "
    "燈灯 煙烟 熱热 爛烂 爭争 爾尔 牆墙 "
    "猶犹 獨独 獲获 "
    "畫画 當当 療疗 癒愈 "
    "盡尽 監监 盤盘 "
    "確确 礎础 "
    "種种 稱称 穩稳 "
    "筆笔 範范 簡简 籃篮 "
    "糧粮 "
    "羅罗 "
    "腦脑 膽胆 "
    "興兴 舉举 "
    "莊庄 藍蓝 蘭兰 "
    "衛卫 "
    "裝装 "
    "觀观 "
    "貝贝 負负 "
    "趕赶 "
    "躍跃 "
    "軟软 輕轻 較较 載载 輛辆 "
    "辦办 "
    "週周 遊游 運运 過过 達达 違违 遺遗 適适 選选 還还 邊边 "
    "鄉乡 "
    "釋释 "
    "針针 鋼钢 錶表 鍵键 鎖锁 鏡镜 鐘钟 "
    "闊阔 "
    "隨随 險险 "
    "雜杂 雞鸡 難难 "
    "電电 霧雾 "
    "靈灵 "
    "韋韦 "
    "響响 "
    "頁页 順顺 須须 頓顿 頻频 顏颜 類类 "
    "風风 "
    "飛飞 "
    "館馆 飯饭 "
    "驗验 騎骑 "
    "體体 "
    "鬧闹 "
    "魯鲁 鮮鲜 "
    "鴻鸿 鶴鹤 "
    "麥麦 "
    "黨党 "
    "齡龄 "
    "積积 歷历 壞坏 懷怀 聞闻 戰战 擇择 擔担 擁拥 擊击 攝摄 數数 斷断 暫暂 曉晓 歐欧 殺杀 殘残 "
    "臨临 將将 麼么 區区 參参 雙双 發发 另另 嘆叹 嚴严 圍围 圖图 壇坛 墳坟 奮奋 婁娄 嬰婴 "
    "寫写 尋寻 屆届 屬属 岡冈 峽峡 嶽岳 幣币 幹干 廣广 彈弹 徑径 徵征 憂忧 懂懂 戲戏 "
    "掃扫 揚扬 換换 損损 搖摇 撥拨 擴扩 擠挤 攤摊 敵敌 斬斩 於于 晉晋 暢畅 曬晒 術术 "
    "條条 棄弃 棟栋 樹树 橫横 檔档 歸归 毆殴 氫氢 決决 沒没 況况 淚泪 淨净 測测 湧涌 "
    "準准 溝沟 滅灭 滾滚 漁渔 漸渐 潛潜 澳澳 激激 濃浓 瀋沈 灑洒 灘滩 爐炉 犧牺 "
    "獅狮 現现 環环 甦苏 疊叠 瘋疯 發发 盜盗 睏困 矯矫 碼码 礦矿 禍祸 禪禅 稅税 "
    "窮穷 競竞 筍笋 築筑 簽签 糾纠 紙纸 級级 紛纷 紹绍 絲丝 綜综 綠绿 維维 網网 緊紧 "
    "緒绪 練练 縮缩 績绩 繁繁 繩绳 罰罚 罷罢 習习 聖圣 聲声 肅肃 脫脱 膚肤 臟脏 艦舰 "
    "艱艰 蒼苍 蓋盖 薦荐 薩萨 蘋苹 蟲虫 補补 製制 複复 襪袜 規规 視视 親亲 覽览 觸触 "
    "訪访 診诊 詞词 詢询 該该 詳详 誇夸 誌志 語语 課课 調调 諸诸 謀谋 謂谓 證证 護护 "
    "讀读 貨货 販贩 貫贯 貼贴 賀贺 賢贤 賴赖 贏赢 贊赞 趨趋 跡迹 踐践 蹤踪 軌轨 軒轩 "
    "輔辅 輪轮 輯辑 轄辖 農农 連连 週周 鄉乡 醫医 釣钓 鈴铃 銅铜 銘铭 鋪铺 錦锦 鍋锅 "
    "鎮镇 鏈链 鐵铁 閃闪 閉闭 閱阅 闖闯 陝陕 際际 階阶 隸隶 雖虽 雙双 雛雏 離离 "
    "靜静 韻韵 頒颁 頗颇 頸颈 顆颗 顧顾 飄飘 餐餐 饒饶 馳驰 駕驾 騙骗 驅驱 驚惊 "
    "髒脏 鬥斗 魂魂 鯨鲸 鳴鸣 鹽盐 麗丽 黴霉 點点 齒齿 龜龟 羣群 著着 "
)

_TABLE = {ord(pair[0]): pair[1] for pair in _PAIRS.split() if len(pair) == 2 and pair[0] != pair[1]}


def simplified(text: str) -> str:
    """``text`` with its traditional characters replaced one for one (the same length)."""
    return text.translate(_TABLE)


def original(value: str, simple: str, text: str) -> str:
    """``value`` (found in ``simple``, the simplified form of ``text``) as ``text`` spells it: the
    same span where ``value`` occurs in ``simple``, else ``value`` itself."""
    if simple == text or not value:
        return value
    at = simple.find(value)
    return text[at : at + len(value)] if at >= 0 else value
