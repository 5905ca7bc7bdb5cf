<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/about.py" line="+45"/>
        <source>About Desktop Dedup</source>
        <translation>关于 Desktop Dedup</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Application icon</source>
        <translation>应用程序图标</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Finds exact and near-duplicate documents in Chinese and English, shows them side by side, and moves extra copies to the trash safely.</source>
        <translation>查找中英文文档中的完全重复项和近似重复项，并排对比显示，并安全地将多余的副本移到回收站。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Licensed under the {license} ({id}).</source>
        <translation>依据 {license}（{id}）授权。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Version:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Database:</source>
        <translation>数据库：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Log file:</source>
        <translation>日志文件：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runtime:</source>
        <translation>运行环境：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When reporting a problem, please attach the log file.</source>
        <translation>报告问题时，请附上日志文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open &amp;Log Folder</source>
        <translation>打开日志文件夹(&amp;L)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Copy Details</source>
        <translation>复制详细信息(&amp;C)</translation>
    </message>
</context>
<context>
    <name>ActionResultsDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/list_dialogs.py" line="+301"/>
        <source>Some files were not removed</source>
        <translation>部分文件未被移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Removed %n file(s);</source>
        <translation>
            <numerusform>已移除 %n 个文件；</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source> %n file(s) left in place:</source>
        <translation>
            <numerusform>以下 %n 个保留在原处：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../desktop_dedup/gui/app.py" line="+55"/>
        <source>Desktop Dedup</source>
        <translation>Desktop Dedup</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Database too new</source>
        <translation>数据库版本过新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This database was written by a newer version of Desktop Dedup.</source>
        <translation>此数据库由更新版本的 Desktop Dedup 写入。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot open the database</source>
        <translation>无法打开数据库</translation>
    </message>
</context>
<context>
    <name>CloseModel</name>
    <message>
        <location filename="../../desktop_dedup/gui/models/close.py" line="+57"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Closest to</source>
        <translation>最接近</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Shares {share} of its text with {member}, but not enough with every file of this group to be one of its duplicates: no rule marks it with the group. Select it to compare the two; tick it to remove it while {member} is kept.
{path}</source>
        <translation>与 {member} 有 {share} 的文字相同，但与本组的每个文件相同的程度不足以算作它的重复文件：任何标记规则都不会随本组标记它。选中它即可比较两者；勾选它即可在保留 {member} 的前提下删除它。
{path}</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{name}, close to {member}</source>
        <translation>{name}，接近 {member}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>marked</source>
        <translation>已标记</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <location filename="../../desktop_dedup/gui/diff_view.py" line="+353"/>
        <source>Reference text</source>
        <extracomment>Emitted after a diff was rendered: (similarity, number of changes). Emitted when the user swapped sides: the new (left doc id, right doc id). Emitted when a diff could not be computed (a file gone or unreadable): the message.</extracomment>
        <translation>参考文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compared text</source>
        <translation>对比文本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous change</source>
        <translation>上一处改动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next change</source>
        <translation>下一处改动</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Swap sides</source>
        <translation>交换左右</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ignore spaces and punctuation</source>
        <translation>忽略空格和标点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Differences in whitespace and punctuation are not shown as changes</source>
        <translation>空白和标点的差异不显示为改动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Select a group to compare its files</source>
        <translation>选择一组以对比其中的文件</translation>
    </message>
    <message>
        <location line="+127"/>
        <source>(two pages of one template)</source>
        <translation>（同一模板的两页）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Taken for two documents: “{first}” recurs in one and seldom or never in the other, “{second}” the other way round, as in two pages of one template that name two things.</source>
        <translation>判定为两个文档：“{first}”在一个文件中反复出现，在另一个中很少或从未出现，“{second}”则相反，就像同一模板写出的、各讲一件事物的两页。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(only boilerplate in common)</source>
        <translation>（共有的只是通用套话）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Taken for two documents: what they share is text that many other documents of the index hold too (a disclaimer, a template&apos;s lines), and without it each is a text of its own.</source>
        <translation>判定为两个文档：两者共有的文字在索引中的许多其他文档里也有（如免责声明、模板中的行），除去这部分，各自是不同的文本。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Reference</source>
        <translation>参考文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compared</source>
        <translation>对比文件</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>Similarity: {value}</source>
        <translation>相似度：{value}</translation>
    </message>
    <message numerus="yes">
        <location line="-13"/>
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n 处改动</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No changes</source>
        <translation>没有改动</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>{role}: {name}  —  {folder}</source>
        <translation>{role}：{name}  —  {folder}</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Comparing…</source>
        <translation>正在对比…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot compare: {error}</source>
        <translation>无法对比：{error}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Change {index} of {count}</source>
        <translation>第 {index} 处改动，共 {count} 处</translation>
    </message>
</context>
<context>
    <name>FolderPanel</name>
    <message>
        <location filename="../../desktop_dedup/gui/folders.py" line="+94"/>
        <source>Folders to scan</source>
        <extracomment>Folders inside a listed one that the last scan could not read, named in its tooltip.</extracomment>
        <translation>要扫描的文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Folders to scan. Tick a folder to make it a reference folder: its files are always kept and never marked or removed. You can drop folders here.</source>
        <translation>要扫描的文件夹。勾选某个文件夹可将其设为参考文件夹：其中的文件始终保留，不会被标记或移除。也可以把文件夹拖放到这里。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Add folders with the button or drop them here.</source>
        <translation>点击按钮添加文件夹，或把文件夹拖放到这里。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tick a folder to make it a reference: its files are always kept.</source>
        <translation>勾选文件夹可将其设为参考文件夹：其中的文件始终保留。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add folder</source>
        <translation>添加文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove folder</source>
        <translation>移除文件夹</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{path} is not a folder.</source>
        <translation>{path} 不是文件夹。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>{path}  (reference: always kept)</source>
        <translation>{path}  （参考：始终保留）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference folder: files here are never marked or removed.</source>
        <translation>参考文件夹：其中的文件不会被标记或移除。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tick to make this a reference folder.</source>
        <translation>勾选以设为参考文件夹。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{folder}  (not read at the last scan)</source>
        <translation>{folder}  （上次扫描未能读取）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The last scan could not read this folder: {reason}. Its files are kept as the scan before left them; to drop them, remove the folder from the list or choose Forget kept files… in the Problems list.</source>
        <translation>上次扫描无法读取此文件夹：{reason}。其中的文件保留之前扫描的结果；要移除它们，请从列表中移除此文件夹，或在问题列表中选择“忘记保留的文件…”。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{folder}  (a folder inside not read at the last scan)</source>
        <translation>{folder}  （其中有文件夹上次扫描未能读取）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The last scan could not read {path}: {reason}.</source>
        <translation>上次扫描无法读取 {path}：{reason}。</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>… and %n more folder(s).</source>
        <translation>
            <numerusform>……还有 %n 个文件夹。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Their files are kept as the scan before left them; to drop them, choose Forget kept files… in the Problems list.</source>
        <translation>其中的文件保留之前扫描的结果；要移除它们，请在问题列表中选择“忘记保留的文件…”。</translation>
    </message>
</context>
<context>
    <name>Formatting</name>
    <message>
        <location filename="../../desktop_dedup/gui/formatting.py" line="+18"/>
        <source>byte</source>
        <translation>字节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>{h} h {m:02d} min</source>
        <translation>{h} 小时 {m:02d} 分</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{m} min {s:02d} s</source>
        <translation>{m} 分 {s:02d} 秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Identical</source>
        <translation>完全相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same text</source>
        <translation>文本相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Near duplicate</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Every file has exactly the same bytes.</source>
        <translation>所有文件的字节完全相同。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Same text, possibly in different formats.</source>
        <translation>文本相同，格式可能不同。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Almost the same text: small edits between the files.</source>
        <translation>文本几乎相同：文件之间只有少量改动。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Listing files</source>
        <translation>列出文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fingerprinting</source>
        <translation>计算指纹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grouping</source>
        <translation>分组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Removing</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{pct}%</source>
        <translation>{pct}%</translation>
    </message>
</context>
<context>
    <name>GroupsModel</name>
    <message>
        <location filename="../../desktop_dedup/gui/models/groups.py" line="+198"/>
        <source>Kind</source>
        <extracomment>Emitted after a reload with the filtered total, so status lines can update. Emitted when a filter could not be applied (e.g. a bad regular expression). Emitted when a reload has put its rows in (at once without ops, later with them).</extracomment>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reclaimable</source>
        <translation>可释放空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reference file</source>
        <translation>参考文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{members}+{close}</source>
        <translation>{members}+{close}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The least share of text any member has in common with the reference</source>
        <translation>组内成员与参考文件共有文本的最低比例</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n more file(s) close to this group, not the same as every file in it: listed below its files</source>
        <translation>
            <numerusform>另有 %n 个文件与本组接近，但并非与组内每个文件都相同：列在本组文件下方</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>IgnoredPairsDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/list_dialogs.py" line="+19"/>
        <source>Not duplicates</source>
        <translation>不是重复项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File A</source>
        <translation>文件 A</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>File B</source>
        <translation>文件 B</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Since</source>
        <translation>忽略时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pairs you marked as not duplicates. They are matched by content, so they stay ignored when files are renamed.</source>
        <translation>您标记为“不是重复项”的文件对。它们按内容匹配，因此文件改名后仍会被忽略。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No pairs are ignored. To keep two files that are not duplicates out of the results, choose Actions → Not duplicates: ignore this pair.</source>
        <translation>没有被忽略的文件对。要让两个并非重复的文件不再出现在结果中，请选择“操作 → 不是重复项：忽略这一对”。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Remove selected</source>
        <translation>移除所选</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+30"/>
        <source>Clear all</source>
        <translation>全部清除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget all {count} ignored pairs? They may be grouped again.</source>
        <translation>要清除全部 {count} 个已忽略的文件对吗？它们可能会再次被归为一组。</translation>
    </message>
</context>
<context>
    <name>JournalDialog</name>
    <message>
        <location line="-116"/>
        <source>Removal journal</source>
        <translation>移除记录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Destination</source>
        <translation>目标位置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Content hash</source>
        <translation>内容哈希</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every removal or move the app attempted, newest last.</source>
        <translation>本程序尝试过的每一次移除或移动，最新的在最后。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No removals yet. The files you move to the trash or to a folder, or replace by hard links, will be listed here.</source>
        <translation>还没有移除过文件。您移到回收站或某个文件夹、或替换为硬链接的文件会列在这里。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_dedup/gui/main_window.py" line="+197"/>
        <source>Duplicate documents</source>
        <extracomment>How often the window looks for changes another program or window made to its index (ms). A scan ended (ScanSummary; ``cancelled`` tells whether it was stopped). A trash/move ended: list of ActionResult. A background task raised: message. The group shown in the members table changed (group id or -1). A report was written: its path. Another program or window changed the index (the views were refreshed). The reader of names that are not UTF-8 is loaded (pathrules.read_names_off_thread): emitted from its thread, received on this one.</extracomment>
        <translation>重复文档</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Filter groups by file path…</source>
        <translation>按文件路径筛选分组…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter groups by path</source>
        <translation>按路径筛选分组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regex</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Treat the filter as a regular expression</source>
        <translation>将筛选条件视为正则表达式</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Duplicate groups</source>
        <translation>重复项分组</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Files in the selected group</source>
        <translation>所选分组中的文件</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Files close to the selected group</source>
        <translation>与所选分组接近的文件</translation>
    </message>
    <message>
        <location line="+31"/>
        <location line="+651"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="-617"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Working…</source>
        <translation>正在处理…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working</source>
        <translation>正在处理</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Scan the folders for duplicate documents</source>
        <translation>扫描文件夹中的重复文档</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop the running task</source>
        <translation>停止正在运行的任务</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export as HTML…</source>
        <translation>导出为 HTML…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export as CSV…</source>
        <translation>导出为 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export as JSON…</source>
        <translation>导出为 JSON…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next group</source>
        <translation>下一组</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous group</source>
        <translation>上一组</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next change</source>
        <translation>下一处改动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous change</source>
        <translation>上一处改动</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Swap sides</source>
        <translation>交换左右</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show in file manager</source>
        <translation>在文件管理器中显示</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Mark / unmark file</source>
        <translation>标记/取消标记文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mark all but the reference in this group</source>
        <translation>标记本组中除参考文件外的所有文件</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mark all but the reference in every group</source>
        <translation>标记每组中除参考文件外的所有文件</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keep the newest, mark the rest</source>
        <translation>保留最新的，标记其余</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the oldest, mark the rest</source>
        <translation>保留最旧的，标记其余</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the largest, mark the rest</source>
        <translation>保留最大的，标记其余</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the smallest, mark the rest</source>
        <translation>保留最小的，标记其余</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the shortest path, mark the rest</source>
        <translation>保留路径最短的，标记其余</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keep this one, mark the others</source>
        <translation>保留这一份，标记其他</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep the one in folder…</source>
        <translation>保留指定文件夹中的副本…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Mark everything in folder…</source>
        <translation>标记指定文件夹中的全部文件…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invert marks</source>
        <translation>反转标记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clear all marks</source>
        <translation>清除所有标记</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move marked to trash…</source>
        <translation>将已标记文件移到回收站…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move the marked files to the trash</source>
        <translation>将已标记的文件移到回收站</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Move marked to folder…</source>
        <translation>将已标记文件移到文件夹…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not duplicates: ignore this pair</source>
        <translation>不是重复项：忽略这一对</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not duplicates: ignore this group</source>
        <translation>不是重复项：忽略这一组</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Problems…</source>
        <translation>问题列表…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Removal journal…</source>
        <translation>移除记录…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ignored pairs…</source>
        <translation>已忽略的文件对…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>About Desktop Dedup</source>
        <translation>关于 Desktop Dedup</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Review</source>
        <translation>审阅(&amp;R)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&amp;Mark</source>
        <translation>标记(&amp;M)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Actions</source>
        <translation>操作(&amp;A)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+52"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Main toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The new language will be used the next time you start the app.</source>
        <translation>新语言将在下次启动程序时生效。</translation>
    </message>
    <message>
        <location line="+149"/>
        <source>The index was changed by another program or window; showing its new state.</source>
        <translation>索引已被其他程序或窗口修改；现在显示的是修改后的状态。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The operation stopped with an error: {error}</source>
        <translation>操作因错误而停止：{error}</translation>
    </message>
    <message>
        <location line="+27"/>
        <location line="+3"/>
        <source>Invalid regular expression: {error}</source>
        <translation>无效的正则表达式：{error}</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>{count} marked ({size})</source>
        <translation>已标记 {count} 个（{size}）</translation>
    </message>
    <message numerus="yes">
        <location line="+50"/>
        <source>Close to this group, not the same as every file in it (%n file(s)):</source>
        <translation>
            <numerusform>与本组接近、但并非与组内每个文件都相同的文件（%n 个）：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>No group matches the filter.</source>
        <translation>没有与筛选条件匹配的分组。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No duplicates found yet. Press Scan (F5) to look for them.</source>
        <translation>尚未找到重复项。按“扫描”(F5) 开始查找。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add a folder on the left (or drop one here), then press Scan.</source>
        <translation>请在左侧添加文件夹（或将文件夹拖放到这里），然后按“扫描”。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Files in this group ({count})</source>
        <translation>本组文件（{count}）</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Closest in the group</source>
        <translation>组内最接近的文件</translation>
    </message>
    <message numerus="yes">
        <location line="+233"/>
        <source>Scan stopped. Kept the %n file(s) fingerprinted so far; scanning again continues where it stopped.</source>
        <translation>
            <numerusform>扫描已停止。已计算指纹的 %n 个文件会被保留；再次扫描将从停止处继续。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{scanned} ({again} read again for this version): {groups}, {problems}.</source>
        <translation>{scanned}（其中 {again} 个因版本更新而重新读取）：{groups}，{problems}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{scanned}: {groups}, {problems}.</source>
        <translation>{scanned}：{groups}，{problems}。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Scanned %n file(s) in {time}</source>
        <translation>
            <numerusform>用时 {time} 扫描了 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source> %n file(s) in folders this scan could not read kept as last scanned (View ▸ Problems…).</source>
        <translation>
            <numerusform>本次扫描无法读取的文件夹中的 %n 个文件保留上次扫描的结果（视图 ▸ 问题列表…）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Nothing can be removed now</source>
        <translation>现在无法移除任何文件</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>The %n marked file(s), or the copies to keep, are in folders that are not there (a drive unplugged, or a share not mounted?).</source>
        <translation>
            <numerusform>已标记的 %n 个文件或要保留的副本所在的文件夹不在（移动硬盘已拔出，或共享未挂载？）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Keep near duplicates</source>
        <translation>保留近似重复</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Nothing was removed: every marked file is a near duplicate you kept.</source>
        <translation>没有删除任何文件：标记的文件都是您选择保留的近似重复。</translation>
    </message>
    <message>
        <location line="+160"/>
        <source>Exporting to {path}…</source>
        <translation>正在导出到 {path}…</translation>
    </message>
    <message>
        <location line="-440"/>
        <source>Keep the copies in this folder</source>
        <translation>保留此文件夹中的副本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Mark every copy in this folder</source>
        <translation>标记此文件夹中的所有副本</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Copied {path}</source>
        <translation>已复制 {path}</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location line="-397"/>
        <location line="+409"/>
        <source>Something went wrong</source>
        <translation>出错了</translation>
    </message>
    <message>
        <location line="-959"/>
        <source>Each of these files is the same as one file of this group, but not as every file of it, so it is not one of its duplicates: no rule marks it with the group. Select one to compare it with the file it is closest to; tick it to remove it while that file is kept.</source>
        <translation>这些文件各自与本组中的某个文件相同，但并非与组内每个文件都相同，因此不算本组的重复文件：任何标记规则都不会随本组标记它们。选中一个即可与它最接近的文件比较；勾选它即可在保留那个文件的前提下删除它。</translation>
    </message>
    <message numerus="yes">
        <location line="+603"/>
        <source>%n document(s)</source>
        <translation>
            <numerusform>%n 个文档</numerusform>
        </translation>
    </message>
    <message>
        <location line="+357"/>
        <source>The task stopped with an error: {error}</source>
        <translation>任务因错误而停止：{error}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No folders</source>
        <translation>没有文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add at least one folder to scan (File ▸ Add folder…, or drop one on the window).</source>
        <translation>请至少添加一个要扫描的文件夹（文件 ▸ 添加文件夹…，或将文件夹拖放到窗口上）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Scanning…</source>
        <translation>正在扫描…</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Marks removed</source>
        <translation>已取消标记</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n marked file(s) changed since they were marked and are no longer marked:</source>
        <translation>
            <numerusform>%n 个已标记的文件在标记后被修改，已不再标记：</numerusform>
        </translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Nothing marked</source>
        <translation>没有标记任何文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mark the files to remove first (M or the checkbox).</source>
        <translation>请先标记要移除的文件（按 M 键或勾选复选框）。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Every copy would be removed</source>
        <translation>所有副本都将被移除</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Remove every copy</source>
        <translation>移除所有副本</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+22"/>
        <source>Near duplicates are marked</source>
        <translation>标记了近似重复的文件</translation>
    </message>
    <message numerus="yes">
        <location line="-20"/>
        <source>%n of the marked files are near duplicates: each holds text that the copy kept in its group does not. Remove them too?</source>
        <translation>
            <numerusform>标记的文件中有 %n 个是近似重复：每个都含有本组保留的副本所没有的文本。也要删除它们吗？</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Identical and same-text copies are removed either way. Near duplicates you do not include stay where they are.</source>
        <translation>完全相同和文本相同的副本无论如何都会删除。未选择包括的近似重复文件会留在原处。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Remove near duplicates too</source>
        <translation>同时删除近似重复</translation>
    </message>
    <message>
        <location line="+33"/>
        <location line="+8"/>
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Each file is checked against the scan right before it is moved; files changed since the scan are left alone.</source>
        <translation>每个文件在移动前都会与扫描结果核对；扫描后有改动的文件将保持原样。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Moving to trash…</source>
        <translation>正在移到回收站…</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Select a file other than the reference to ignore the pair.</source>
        <translation>请选择参考文件以外的文件，以忽略这一对。</translation>
    </message>
    <message>
        <location line="-940"/>
        <location line="+1008"/>
        <source>Export results</source>
        <translation>导出结果</translation>
    </message>
    <message numerus="yes">
        <location line="-680"/>
        <source>{shown} of %n group(s)</source>
        <translation>
            <numerusform>{shown} / %n 组</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <location line="+415"/>
        <source>%n group(s)</source>
        <translation>
            <numerusform>%n 组</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-410"/>
        <source>%n duplicate(s), {size} reclaimable</source>
        <translation>
            <numerusform>%n 个重复项，可释放 {size}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <location line="+400"/>
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <location line="-200"/>
        <source>Files in reference folders cannot be marked.</source>
        <translation>参考文件夹中的文件不能被标记。</translation>
    </message>
    <message numerus="yes">
        <location line="+277"/>
        <source>In %n group(s) every file is marked, so no copy of that document would be left. Continue anyway?</source>
        <translation>
            <numerusform>有 %n 个组的所有文件都被标记了，该文档将一份都不剩。仍要继续吗？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+62"/>
        <source>Move %n file(s) ({size}) to the trash?</source>
        <translation>
            <numerusform>将 %n 个文件（{size}）移到回收站？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>Removed %n file(s), {failed} left in place.</source>
        <translation>
            <numerusform>已移除 %n 个文件，{failed} 个保留在原处。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+24"/>
        <source>These files are byte-for-byte identical; they cannot be ignored.</source>
        <translation>这两个文件逐字节完全相同，不能标为“不是重复项”。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This group&apos;s files are byte-for-byte identical; they cannot be ignored.</source>
        <translation>本组文件逐字节完全相同，不能标为“不是重复项”。</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not write {path}.</source>
        <translation>无法写入 {path}。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
</context>
<context>
    <name>MembersModel</name>
    <message>
        <location filename="../../desktop_dedup/gui/models/members.py" line="+201"/>
        <source>Name</source>
        <extracomment>(doc_ids, marked) after the user toggled marks through the model.</extracomment>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{path}
Its name on disk is not UTF-8: {exact}</source>
        <translation>{path}
磁盘上的文件名不是 UTF-8：{exact}</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Reference: the copy the others are compared with, kept unless you mark it.
{path}</source>
        <translation>参考文件：其他副本与之比较的那一份；除非你标记它，否则保留。
{path}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>In a reference folder: always kept.
{path}</source>
        <translation>位于参考文件夹中：始终保留。
{path}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In a folder the last scan could not read (a drive unplugged?): kept as last scanned; it cannot be compared or removed until the folder is back.
{path}</source>
        <translation>位于上次扫描无法读取的文件夹中（移动硬盘已拔出？）：保留上次扫描的结果；在该文件夹回来之前无法对比或移除。
{path}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Shares {share} of its text with the reference</source>
        <translation>与参考文件共有 {share} 的文本</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>marked</source>
        <translation>已标记</translation>
    </message>
</context>
<context>
    <name>MoveTargetDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/review_actions.py" line="+54"/>
        <source>Target folder</source>
        <translation>目标文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the folder structure</source>
        <translation>保留文件夹结构</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Each file keeps its folders below the scanned folder it came from (docs/2023/a.txt goes to TARGET/2023/a.txt); otherwise all go directly into the target folder.</source>
        <translation>每个文件保留它在所扫描文件夹下的子文件夹（docs/2023/a.txt 移到 目标/2023/a.txt）；否则全部直接移入目标文件夹。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
</context>
<context>
    <name>ProblemsDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/list_dialogs.py" line="-143"/>
        <source>Problems</source>
        <extracomment>the files kept from some folders were let go: what was said to the user (the window&apos;s status bar says it after the dialog)</extracomment>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>These files were skipped. Everything else was scanned normally.</source>
        <translation>以下文件被跳过，其余文件均已正常扫描。</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Forget kept files…</source>
        <translation>忘记保留的文件…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Let go of the files kept from the selected folders, which the last scan could not read: they leave the results. The files themselves are not touched.</source>
        <translation>放下从所选文件夹保留的文件（上次扫描无法读取这些文件夹）：它们将离开结果。文件本身不会被改动。</translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <location line="+30"/>
        <location line="+5"/>
        <location line="+17"/>
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location line="-89"/>
        <source>No problems: every file was read.</source>
        <translation>没有问题：所有文件均已读取。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>These files were skipped. Everything else was scanned normally. A folder the scan could not read keeps its files as last scanned. If it is gone for good (a drive retired, a share moved), select it and choose Forget kept files…</source>
        <translation>以下文件被跳过，其余文件均已正常扫描。扫描无法读取的文件夹会保留上次扫描时的文件；如果它已永久不在（驱动器已停用、共享已迁移），请选中它并选择“忘记保留的文件…”。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Forget the {files} kept from {folder}?</source>
        <translation>忘记从 {folder} 保留的 {files}？</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Forget the {files} kept from {folders}?</source>
        <translation>忘记从 {folders} 保留的 {files}？</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n folder(s)</source>
        <translation>
            <numerusform>%n 个文件夹</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Forget kept files</source>
        <translation>忘记保留的文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>They leave the results, with their groups and marks. The files themselves are not touched: a scan that finds them again reads them again.</source>
        <translation>它们将连同所在的组和标记一起离开结果。文件本身不会被改动：再次找到它们的扫描会重新读取。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Forgot {files}: they left the results (the files were not touched).</source>
        <translation>已忘记 {files}：它们已离开结果（文件本身未被改动）。</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <location filename="../../desktop_dedup/gui/progress_panel.py" line="+34"/>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+39"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Cancel the running task</source>
        <translation>取消正在运行的任务</translation>
    </message>
    <message numerus="yes">
        <location line="+59"/>
        <source>Reading %n unchanged file(s) again: this version of the app reads documents differently.</source>
        <translation>
            <numerusform>正在重新读取 %n 个未改动的文件：此版本读取文档的方式有所不同。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>{done} of %n file(s)</source>
        <translation>
            <numerusform>{done} / %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(OCR: page {page} of {pages})</source>
        <translation>（OCR：第 {page} 页，共 {pages} 页）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{rate:.0f} files/s</source>
        <translation>{rate:.0f} 个文件/秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{size}/s</source>
        <translation>{size}/秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>about {time} left</source>
        <translation>剩余约 {time}</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <location filename="../../desktop_dedup/gui/reasons.py" line="+34"/>
        <source>file no longer exists</source>
        <translation>文件已不存在</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is in a reference folder</source>
        <translation>位于参考文件夹中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>changed since the scan (size differs)</source>
        <translation>扫描后已被修改（大小不同）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>changed since the scan (modification time differs)</source>
        <translation>扫描后已被修改（修改时间不同）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>changed since the scan (content differs)</source>
        <translation>扫描后已被修改（内容不同）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is a symbolic link now (changed since the scan)</source>
        <translation>现在是符号链接（扫描后已改变）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is a directory</source>
        <translation>是一个文件夹</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no content hash was recorded, so it cannot be verified</source>
        <translation>没有记录内容哈希，无法校验</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cancelled before this file</source>
        <translation>在处理此文件前已取消</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is already in the target folder</source>
        <translation>已在目标文件夹中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>still exists after sending it to the trash</source>
        <translation>移到回收站后仍然存在</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no trash folder can be used on this drive</source>
        <translation>此磁盘上没有可用的回收站</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>a folder on its path is a symbolic link now (changed since the scan)</source>
        <translation>路径上的某个文件夹现在是符号链接（扫描后已改变）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the copy to keep is gone or changed since the scan; scan again first</source>
        <translation>要保留的副本已不存在或扫描后已被修改；请先重新扫描</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is not in a duplicate group any more</source>
        <translation>已不在任何重复组中</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the file it is closest to is being removed too; keep that one first</source>
        <translation>与它最接近的文件也将被删除；请先保留那个文件</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>holds text the kept copy does not (a near duplicate); include near copies to remove it</source>
        <translation>含有保留副本所没有的文字（近似重复）；选择包括近似副本才能移除它</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>empty file (0 bytes)</source>
        <translation>空文件（0 字节）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>scanned, no text layer</source>
        <translation>扫描件，没有文本层</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>scanned, no text layer; OCR can read it: turn OCR on in the settings (or scan --ocr)</source>
        <translation>扫描件，没有文本层；OCR 可以识别：请在设置中开启 OCR（或使用 scan --ocr）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>scanned, no text layer; OCR could read it: install Tesseract (with chi_sim and eng) and turn OCR on in the settings (or scan --ocr)</source>
        <translation>扫描件，没有文本层；OCR 可以识别：请安装 Tesseract（含 chi_sim 和 eng 语言），并在设置中开启 OCR（或使用 scan --ocr）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>scanned, no text layer; OCR is on but Tesseract (with chi_sim or eng) was not found</source>
        <translation>扫描件，没有文本层；OCR 已开启，但未找到 Tesseract（含 chi_sim 或 eng 语言）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>scanned, OCR found no text</source>
        <translation>扫描件，OCR 未识别出文字</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>permission denied (folder)</source>
        <translation>权限不足（文件夹）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>folder vanished during scan</source>
        <translation>扫描过程中文件夹消失了</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>folder not found</source>
        <translation>找不到文件夹</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>its folder is not there (a drive unplugged, or a share not mounted?)</source>
        <translation>所在的文件夹不在（移动硬盘已拔出，或共享未挂载？）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the copy to keep is in a folder that is not there (a drive unplugged, or a share not mounted?)</source>
        <translation>要保留的副本所在的文件夹不在（移动硬盘已拔出，或共享未挂载？）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>folder is empty (a drive or share not mounted?): its files are kept as last scanned</source>
        <translation>文件夹是空的（驱动器或共享未挂载？）：其中的文件保留上次扫描的结果</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>nothing is mounted here now (a drive or share was at the last scan): its files are kept as last scanned</source>
        <translation>这里现在没有挂载任何驱动器或共享（上次扫描时有）：其中的文件保留上次扫描的结果</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no file extension</source>
        <translation>没有文件扩展名</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no kept copy holds the same bytes; only identical copies can be replaced by a hard link</source>
        <translation>没有保留的副本与它字节相同；只有完全相同的副本才能替换为硬链接</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>is on another file system than the kept copy; a hard link cannot cross it</source>
        <translation>与保留的副本不在同一文件系统上，硬链接无法跨越文件系统</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>is already a hard link to the kept copy</source>
        <translation>已经是保留副本的硬链接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>this file system does not support hard links</source>
        <translation>此文件系统不支持硬链接</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the original name is taken by another file; nothing was overwritten</source>
        <translation>原来的文件名已被另一个文件占用；没有覆盖任何文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not found in the trash (emptied, or restored already)</source>
        <translation>在回收站中找不到（已清空，或已恢复）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the file in the trash is not the one that was removed (content differs)</source>
        <translation>回收站中的文件不是被删除的那个（内容不同）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no longer at the folder it was moved to</source>
        <translation>已不在它被移到的文件夹中</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the moved file changed since it was moved (content differs)</source>
        <translation>移动后文件已被修改（内容不同）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no content hash was recorded, so the file cannot be verified</source>
        <translation>没有记录内容哈希，无法核对文件</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>only files moved to the trash or to a folder can be restored</source>
        <translation>只有移到回收站或文件夹的文件才能恢复</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>this removal did not happen, so there is nothing to restore</source>
        <translation>这次删除没有发生，无需恢复</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>restored already</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot be found from here: restore it from the Recycle Bin</source>
        <translation>无法从这里找到：请从 Windows 回收站中还原</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cannot be found from here: restore it from the Trash in the Finder</source>
        <translation>无法从这里找到：请在访达的废纸篓中放回</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no such journal entry</source>
        <translation>日志中没有这一条</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the reader crashed on this file; skipped</source>
        <translation>读取程序在这个文件上崩溃了；已跳过</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>out of memory while reading this file; skipped</source>
        <translation>读取这个文件时内存不足；已跳过</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>not an FB2 e-book (no FictionBook element)</source>
        <translation>不是 FB2 电子书（没有 FictionBook 元素）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>EML is encrypted (S/MIME or PGP)</source>
        <translation>EML 已加密（S/MIME 或 PGP）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not an e-mail message (no headers)</source>
        <translation>不是电子邮件（没有邮件头）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>PDF is encrypted</source>
        <translation>PDF 已加密</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>PDF uses an unsupported security handler</source>
        <translation>PDF 使用了不支持的安全处理程序</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>changed during the scan; it will be read again next time</source>
        <translation>扫描时文件发生了变化；下次扫描时会重新读取</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>file vanished during scan</source>
        <translation>扫描时文件已不见了</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>binary data, not text</source>
        <translation>二进制数据，不是文本</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>only zero bytes, no text</source>
        <translation>只有零字节，没有文本</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not an RTF document (missing {\rtf header)</source>
        <translation>不是 RTF 文档（缺少 {\rtf 文件头）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>file name is not valid in the file system&apos;s encoding (UTF-8); rename it to include it</source>
        <translation>文件名不符合文件系统的编码（UTF-8）；重命名后才能纳入扫描</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>truncated or corrupt {label}: {detail}</source>
        <translation>{label} 不完整或已损坏：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>corrupt {label}: {detail}</source>
        <translation>{label} 已损坏：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{label} is password-protected</source>
        <translation>{label} 受密码保护</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{label} is DRM-protected{detail}</source>
        <translation>{label} 受 DRM 保护{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>unsupported file type: {detail}</source>
        <translation>不支持的文件类型：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot read: {detail}</source>
        <translation>无法读取：{detail}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{label} cannot be opened: its folder {detail} is not there (a drive unplugged, or a share not mounted?)</source>
        <translation>无法打开 {label}：它所在的文件夹 {detail} 不在（移动硬盘已拔出，或共享未挂载？）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{label} no longer exists (moved or deleted since the scan)</source>
        <translation>{label} 已不存在（扫描后被移动或删除）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot open {label}: {detail}</source>
        <translation>无法打开 {label}：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot stat: {detail}</source>
        <translation>无法获取文件信息：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot list folder: {detail}</source>
        <translation>无法列出文件夹内容：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>too large: {detail}</source>
        <translation>太大：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>zip bomb: {detail}</source>
        <translation>压缩炸弹：{detail}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{label} is in the Word 6/95 format, which is not supported (save it in a newer format)</source>
        <translation>{label} 是 Word 6/95 格式，不受支持（请另存为较新的格式）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{label} is a Print Replica (PDF pages), not a text e-book</source>
        <translation>{label} 是 Print Replica（PDF 页面），不是文本电子书</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>not a {label} e-book (no Mobipocket header)</source>
        <translation>不是 {label} 电子书（没有 Mobipocket 文件头）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>not a {label}: content.xml holds {detail}</source>
        <translation>不是 {label}：content.xml 中是 {detail}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Microsoft Works document, not a Kingsoft WPS one: {label} from Works is not supported</source>
        <translation>这是 Microsoft Works 文档，不是金山 WPS 文档：不支持 Works 的 {label}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>not a {label} (no compound-file header)</source>
        <translation>不是 {label}（没有复合文档文件头）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>not a {label}: a zip (Office Open XML) file with a {name} name</source>
        <translation>不是 {label}：这是一个以 {name} 命名的 zip（Office Open XML）文件</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>not a {label}: legacy binary Office document (OLE) with a {name} name</source>
        <translation>不是 {label}：这是旧的二进制 Office 文档（OLE），却以 {name} 命名</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>not a {label}: the compound file holds {detail}</source>
        <translation>不是 {label}：复合文档中是 {detail}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>unexpected error: {detail}</source>
        <translation>意外错误：{detail}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>not read: {kind} (.{ext}) is a type this app cannot read</source>
        <translation>未读取：{kind}（.{ext}）是本应用无法读取的类型</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>OCR failed: {detail}</source>
        <translation>OCR 失败：{detail}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>took longer than {limit} to read its {pages} pages; skipped</source>
        <translation>读取其 {pages} 页用时超过 {limit}；已跳过</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>took longer than {limit} to read; skipped</source>
        <translation>读取用时超过 {limit}；已跳过</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>needs more than {limit} to read; skipped</source>
        <translation>读取需要超过 {limit} 的内存；已跳过</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>larger than the {limit} limit ({size}); skipped</source>
        <translation>超过 {limit} 的大小上限（{size}）；已跳过</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>OCR failed on page {page}: {detail}</source>
        <translation>第 {page} 页 OCR 失败：{detail}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>OCR took longer than {limit} on page {page}; skipped (the pages read so far are kept for the next scan)</source>
        <translation>第 {page} 页的 OCR 超过 {limit}；已跳过（已识别的页面会保留，下次扫描接着识别）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>OCR took longer than {limit} in all; skipped (the pages read so far are kept for the next scan)</source>
        <translation>OCR 总计超过 {limit}；已跳过（已识别的页面会保留，下次扫描接着识别）</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>moved to the trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>moved to a folder</source>
        <translation>移到文件夹</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>replaced by a hard link</source>
        <translation>已替换为硬链接</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>restored</source>
        <translation>已恢复</translation>
    </message>
</context>
<context>
    <name>RestoreJournalDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/review_actions.py" line="+22"/>
        <source>Restore selected</source>
        <translation>恢复所选</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Put the selected removed files back at their original paths. Each is checked against the content recorded here; a name that is taken is never overwritten.</source>
        <translation>把所选的已删除文件放回原来的位置。每个文件都会与这里记录的内容核对；已被占用的文件名绝不会被覆盖。</translation>
    </message>
</context>
<context>
    <name>ReviewActions</name>
    <message>
        <location line="+59"/>
        <source>Replace marked by hard links…</source>
        <translation>将已标记的替换为硬链接…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replace each marked identical copy by a hard link to the copy kept: the space is freed and both names stay</source>
        <translation>把每个已标记的相同副本替换为指向保留副本的硬链接：释放空间，两个文件名都保留</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open both in external diff tool</source>
        <translation>在外部比较工具中打开两者</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>External diff tool…</source>
        <translation>外部比较工具…</translation>
    </message>
    <message numerus="yes">
        <location line="+42"/>
        <source>Restored %n file(s); scanning the folders to bring the results up to date…</source>
        <translation>
            <numerusform>已恢复 %n 个文件；正在扫描文件夹以更新结果…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Restored %n file(s) outside the listed folders: the results show only files in the list&apos;s folders.</source>
        <translation>
            <numerusform>已恢复 %n 个文件，不在列表中的文件夹里：结果只显示列表中文件夹里的文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Restored %n file(s).</source>
        <translation>
            <numerusform>已恢复 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Some files were not restored</source>
        <translation>部分文件未能恢复</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Move the marked files to</source>
        <translation>将已标记的文件移到</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Files with the same name get a number added; nothing is overwritten.</source>
        <translation>同名文件会自动添加编号，不会覆盖任何文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Each keeps its folders below the scanned folder it came from.</source>
        <translation>每个文件保留它在所扫描文件夹下的子文件夹。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Move to folder</source>
        <translation>移到文件夹</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Move %n file(s) ({size}) to {folder}?</source>
        <translation>
            <numerusform>将 %n 个文件（{size}）移到 {folder}？</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Moving files…</source>
        <translation>正在移动文件…</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+11"/>
        <location line="+19"/>
        <source>Replace by hard links</source>
        <translation>替换为硬链接</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>None of the marked files can be replaced by a hard link: only copies with the very same bytes as a kept copy, on the same drive, can.</source>
        <translation>已标记的文件都不能替换为硬链接：只有与保留副本字节完全相同且位于同一磁盘上的副本才可以。</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>Replace %n identical file(s) by hard links to the kept copy ({size} freed)?</source>
        <translation>
            <numerusform>将 %n 个相同的文件替换为指向保留副本的硬链接（释放 {size}）？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Both names stay and show the same file; a change made through one shows in the other. %n marked file(s) are not identical copies and are left alone.</source>
        <translation>
            <numerusform>两个文件名都保留并指向同一个文件；通过其中一个所做的修改会在另一个中出现。%n 个已标记的文件不是完全相同的副本，保持不变。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Linking files…</source>
        <translation>正在创建硬链接…</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+30"/>
        <location line="+13"/>
        <source>External diff tool</source>
        <translation>外部比较工具</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>The command that compares two files. {a} and {b} stand for the reference and the selected file (otherwise both are added at the end). Empty: the first of meld, kdiff3, kompare, code --diff… that is installed.</source>
        <translation>比较两个文件的命令。{a} 和 {b} 代表参考文件和所选文件（没有时两者加在末尾）。留空：使用已安装的 meld、kdiff3、kompare、code --diff… 中的第一个。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Select a file other than the reference to compare it with the reference.</source>
        <translation>请选择参考文件以外的文件，与参考文件比较。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No diff tool was found (meld, kdiff3, kompare, Visual Studio Code…). Install one, or set its command in Settings → External diff tool…</source>
        <translation>找不到比较工具（meld、kdiff3、kompare、Visual Studio Code…）。请安装一个，或在“设置 → 外部比较工具…”中设置它的命令</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not start {command}.</source>
        <translation>无法启动 {command}。</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>%n of other types</source>
        <translation>
            <numerusform>%n 个其他类型的文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n without an extension that are not text</source>
        <translation>
            <numerusform>%n 个无扩展名且不是文本的文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n script(s) without an extension (#!)</source>
        <translation>
            <numerusform>%n 个无扩展名的脚本（#!）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n excluded by a pattern</source>
        <translation>
            <numerusform>%n 项被排除规则排除</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n under the minimum size</source>
        <translation>
            <numerusform>%n 个小于最小大小</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n hard links to a file already listed</source>
        <translation>
            <numerusform>%n 个是已列出文件的硬链接</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not scanned: {parts}.</source>
        <translation>未扫描：{parts}。</translation>
    </message>
</context>
<context>
    <name>RowsDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/list_dialogs.py" line="-155"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not write {path}.</source>
        <translation>无法写入 {path}。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_dedup/gui/settings_dialog.py" line="+44"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Similarity threshold</source>
        <translation>相似度阈值</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Candidate search radius</source>
        <translation>候选查找半径</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Advanced. Candidates are looked up among documents whose 64-bit fingerprints differ in at most this many bits, then their text is compared. Larger finds more heavily edited copies and takes longer.</source>
        <translation>高级设置。先在 64 位指纹最多相差这么多位的文档中查找候选，再比较它们的文本。数值越大，越能找到改动较多的副本，但耗时更长。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Groups at this threshold</source>
        <translation>此阈值下的分组数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Document types</source>
        <translation>文档类型</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Exclude patterns</source>
        <translation>排除模式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One pattern per line, matched against each file and folder name (* and ?).</source>
        <translation>每行一个模式，与每个文件名和文件夹名匹配（支持 * 和 ?）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Extensions read as text</source>
        <translation>按文本读取的扩展名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>More extensions read as plain text, separated by commas (log, nfo). Files without an extension are read when their content is text.</source>
        <translation>更多按纯文本读取的扩展名，用逗号分隔（log, nfo）。没有扩展名的文件在内容是文本时会被读取。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Minimum file size</source>
        <translation>最小文件大小</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read scanned PDF pages with OCR (slow: seconds per page)</source>
        <translation>用 OCR 识别扫描的 PDF 页面（较慢：每页数秒）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OCR for scanned PDFs</source>
        <translation>扫描 PDF 的 OCR</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Tesseract OCR is not installed, so PDFs without a text layer are listed as problems. Install Tesseract with the chi_sim and eng languages (Debian and Ubuntu: tesseract-ocr, tesseract-ocr-chi-sim, tesseract-ocr-eng) to turn this on.</source>
        <translation>未安装 Tesseract OCR，没有文本层的 PDF 会列为问题文件。安装带 chi_sim 和 eng 语言的 Tesseract（Debian 和 Ubuntu：tesseract-ocr、tesseract-ocr-chi-sim、tesseract-ocr-eng）后即可开启。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Uses {engine} with {languages}; read pages are kept, so it runs once.</source>
        <translation>使用 {engine}（{languages}）；识别过的页面会保留，每页只识别一次。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Near duplicates share at least:</source>
        <translation>近似重复至少共有：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Candidate search radius (bits, advanced):</source>
        <translation>候选查找半径（位，高级）：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Also read as text:</source>
        <translation>也按文本读取：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Scanned PDFs:</source>
        <translation>扫描的 PDF：</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>At least {p} % of their text in common: only copies with trivial differences (another format, punctuation, line breaks, a changed number).</source>
        <translation>至少 {p}% 的文本相同：只包括差别极小的副本（格式、标点、换行或某个数字不同）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>At least {p} % of their text in common: copies with a few edited words, a short passage cut or added, a title or banner, paragraphs in another order. This is the recommended range.</source>
        <translation>至少 {p}% 的文本相同：包括改了几个词、删减或增加了一小段、加了标题或横幅、段落顺序不同的副本。这是推荐的范围。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>At least {p} % of their text in common: looser; finds heavily revised versions, but also some different documents built from one template. Review groups carefully.</source>
        <translation>至少 {p}% 的文本相同：较宽松；能找到大幅修改过的版本，但也会把一些用同一模板写成的不同文档归在一起。请仔细检查各组。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>At least {p} % of their text in common: very loose; groups may hold different documents that share much boilerplate. Not recommended for removing files.</source>
        <translation>至少 {p}% 的文本相同：非常宽松；组内可能包含共用大量套话的不同文档。不建议据此删除文件。</translation>
    </message>
    <message numerus="yes">
        <location line="+32"/>
        <source> byte(s)</source>
        <translation>
            <numerusform> 字节</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+44"/>
        <source>At {p} %, the current results would form %n group(s).</source>
        <translation>
            <numerusform>阈值为 {p}% 时，当前结果将组成 %n 个组。</numerusform>
        </translation>
    </message>
    <message>
        <location line="-121"/>
        <source>Document types:</source>
        <translation>文档类型：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exclude patterns:</source>
        <translation>排除模式：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Minimum size:</source>
        <translation>最小大小：</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Counting groups…</source>
        <translation>正在统计分组…</translation>
    </message>
</context>
</TS>
