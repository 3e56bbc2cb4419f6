; Inno Setup 6 script for Memory Dashboard: a per-user install (no administrator rights), a Start-menu
; shortcut, an optional desktop shortcut and an uninstaller (Settings > Apps).
; Compiled by packaging/build.py, which passes:
;   /DAppVersion=0.1.0  /DSourceDir=dist\memory-dashboard  /DOutputDir=dist\release
;   /DOutputBaseFilename=...-setup  /DIconFile=build\icons\memory-dashboard.ico
;   /DAppExeName="Memory Dashboard.exe"
;   and, when a signing certificate is configured, /Smdsign=<signtool command> /DUseSignTool.
; The shortcuts start the windowed "Memory Dashboard.exe"; memory-dashboard.exe beside it is the console
; build for the command line.

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=X.Y.Z (packaging/build.py does)
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\memory-dashboard"
#endif
#ifndef OutputDir
  #define OutputDir "..\..\dist\release"
#endif
#ifndef OutputBaseFilename
  #define OutputBaseFilename "memory-dashboard-" + AppVersion + "-windows-setup"
#endif
#ifndef IconFile
  #define IconFile "..\..\build\icons\memory-dashboard.ico"
#endif
#ifndef AppExeName
  #define AppExeName "Memory Dashboard.exe"
#endif

[Setup]
; One AppId for every version, so a new installer upgrades the installed app in place.
AppId={{6B1E3C52-8F0A-4C1D-9E57-3A2D4F6B8C91}
AppName=Memory Dashboard
AppVersion={#AppVersion}
AppVerName=Memory Dashboard {#AppVersion}
AppPublisher=Memory Dashboard contributors
VersionInfoVersion={#AppVersion}
; Per-user: {autopf} is %LOCALAPPDATA%\Programs when installing without administrator rights.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
DefaultDirName={autopf}\Memory Dashboard
DefaultGroupName=Memory Dashboard
DisableProgramGroupPage=yes
OutputDir={#OutputDir}
OutputBaseFilename={#OutputBaseFilename}
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\{#AppExeName}
UninstallDisplayName=Memory Dashboard
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes
#ifdef UseSignTool
SignTool=mdsign
SignedUninstaller=yes
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "sweep"; Description: "Dismiss expired memories every 15 minutes, even with the window closed (a scheduled task)"; Flags: unchecked

[InstallDelete]
; Files of an older version that this one no longer ships.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Memory Dashboard"; Filename: "{app}\{#AppExeName}"
Name: "{autodesktop}\Memory Dashboard"; Filename: "{app}\{#AppExeName}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExeName}"; Parameters: "schedule-sweep --every 15m"; Flags: runhidden waituntilterminated; Tasks: sweep
Filename: "{app}\{#AppExeName}"; Description: "{cm:LaunchProgram,Memory Dashboard}"; Flags: nowait postinstall skipifsilent


[UninstallRun]
; The sweep's scheduled task, if there is one (deleting none is fine).
Filename: "{app}\{#AppExeName}"; Parameters: "schedule-sweep --off"; Flags: runhidden waituntilterminated; RunOnceId: "RemoveSweep"
