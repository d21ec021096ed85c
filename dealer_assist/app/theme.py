"""A calm dark theme, legible from a metre away: large type, high contrast, felt-friendly greens."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

BG = "#101814"  # near-black green: calm beside a felt table
PANEL = "#1a2620"
PANEL_HI = "#23342b"
BORDER = "#35503f"
TEXT = "#f2f5f0"
MUTED = "#a9b8ae"
ACCENT = "#4cc38a"  # to act / active mode
GOLD = "#f2c14e"  # pots, chips
RED = "#ff6b6b"
BLUE = "#8fb8de"
CARD_BG = "#fbfbf6"
SUIT_COLOURS = {"c": "#1f7a3a", "d": "#1f5fbf", "h": "#c62828", "s": "#111111"}  # four-colour deck

BASE_PT = 15


def stylesheet(scale: float = 1.0) -> str:
    pt = round(BASE_PT * scale)
    big = round(pt * 1.35)
    huge = round(pt * 1.9)
    return f"""
QWidget {{ background: {BG}; color: {TEXT}; font-size: {pt}pt; }}
QToolTip {{ background: {PANEL_HI}; color: {TEXT}; border: 1px solid {ACCENT}; padding: 6px; font-size: {pt}pt; }}
QFrame#panel, QGroupBox {{ background: {PANEL}; border: 1px solid {BORDER}; border-radius: 10px; }}
QFrame#panel[toAct="true"] {{ border: 3px solid {ACCENT}; }}
QGroupBox {{ margin-top: {big}px; padding-top: 8px; font-weight: 600; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 12px; padding: 0 6px; color: {MUTED}; }}
QLabel {{ background: transparent; }}
QWidget#clear {{ background: transparent; }}
QLabel#title {{ font-size: {big}pt; font-weight: 700; }}
QLabel#huge {{ font-size: {huge}pt; font-weight: 800; color: {GOLD}; }}
QLabel#muted {{ color: {MUTED}; }}
QLabel#boardTitle {{ color: {GOLD}; font-weight: 800; font-size: {round(pt * 1.15)}pt; }}
QLabel#boardLine {{ font-weight: 700; font-size: {round(pt * 1.15)}pt; }}
QLabel#boardOdd {{ color: {GOLD}; }}
QLabel#boardNote {{ color: {MUTED}; }}
QLabel#boardProvisional {{ color: {RED}; font-weight: 800; }}
QLabel#boardTotal {{ font-weight: 700; }}
QLabel#banner {{ background: #5a1f1f; color: {TEXT}; padding: 8px 14px; border-radius: 8px; font-weight: 600; }}
QLabel#notice {{ background: #4a3c12; color: {TEXT}; padding: 8px 14px; border-radius: 8px; }}
QPushButton {{ background: {PANEL_HI}; border: 2px solid {BORDER}; border-radius: 10px; padding: 10px 18px;
  font-weight: 600; min-height: 30px; }}
QPushButton:hover {{ border-color: {ACCENT}; }}
QPushButton:pressed, QPushButton:checked {{ background: {ACCENT}; color: #06140c; border-color: {ACCENT}; }}
QPushButton:disabled {{ color: #5d6b62; border-color: #26352c; background: #141d18; }}
QPushButton#mode {{ font-size: {big}pt; padding: 10px 26px; border-radius: 12px; }}
QListWidget, QTableWidget, QTextEdit, QPlainTextEdit, QLineEdit, QSpinBox, QComboBox {{
  background: {PANEL}; border: 1px solid {BORDER}; border-radius: 8px; padding: 4px;
  selection-background-color: #2f5a44; }}
QHeaderView::section {{ background: {PANEL_HI}; color: {MUTED}; border: none; padding: 6px; font-weight: 600; }}
QTableWidget {{ gridline-color: {BORDER}; }}
QSpinBox {{ min-height: 30px; }}
QTabWidget::pane {{ border: 1px solid {BORDER}; border-radius: 8px; }}
QTabBar::tab {{ background: {PANEL}; color: {MUTED}; padding: 8px 22px; border: 1px solid {BORDER};
  border-bottom: none; border-top-left-radius: 8px; border-top-right-radius: 8px; font-weight: 600; }}
QTabBar::tab:selected {{ background: {PANEL_HI}; color: {TEXT}; border-color: {ACCENT}; }}
QStatusBar {{ color: {MUTED}; }}
QScrollArea {{ border: none; }}
QCheckBox {{ background: transparent; spacing: 8px; }}
QCheckBox::indicator {{ width: {pt + 3}px; height: {pt + 3}px; border: 2px solid {MUTED}; border-radius: 4px;
  background: {PANEL}; }}
QCheckBox::indicator:checked {{ background: {ACCENT}; border-color: {ACCENT}; }}
QCheckBox::indicator:hover {{ border-color: {ACCENT}; }}
"""


def apply_theme(app: QApplication, scale: float = 1.0) -> None:
    app.setStyle("Fusion")
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor(BG))
    palette.setColor(QPalette.ColorRole.WindowText, QColor(TEXT))
    palette.setColor(QPalette.ColorRole.Base, QColor(PANEL))
    palette.setColor(QPalette.ColorRole.Text, QColor(TEXT))
    palette.setColor(QPalette.ColorRole.Button, QColor(PANEL_HI))
    palette.setColor(QPalette.ColorRole.ButtonText, QColor(TEXT))
    palette.setColor(QPalette.ColorRole.ToolTipBase, QColor(PANEL_HI))
    palette.setColor(QPalette.ColorRole.ToolTipText, QColor(TEXT))
    palette.setColor(QPalette.ColorRole.Highlight, QColor("#2f5a44"))
    app.setPalette(palette)
    font = QFont(app.font())
    font.setPointSize(round(BASE_PT * scale))
    app.setFont(font)
    app.setStyleSheet(stylesheet(scale))
