; Inno Setup script for Relay on Windows: per-user, no administrator rights.
; Build on Windows after `./dev bundle` has made dist\relay (the PyInstaller one-folder build):
;   iscc packaging\windows\relay.iss      ->  dist\relay-setup-0.1.0.exe
; It puts the program in %LOCALAPPDATA%\Programs\Relay, the two host manifests beside relay.exe
; (Chrome and Firefox accept a manifest path relative to the manifest on Windows), and points each
; browser's HKCU key at them. The uninstaller removes exactly those files and keys.

#define AppVersion "0.1.0"
#define HostName "dev.relay.bridge"

[Setup]
AppId={{6F1C2A53-8E0B-4C77-9A55-5E3B1D0C7A21}
AppName=Relay
AppVersion={#AppVersion}
AppPublisher=Relay
DefaultDirName={localappdata}\Programs\Relay
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
OutputDir=..\..\dist
OutputBaseFilename=relay-setup-{#AppVersion}
Compression=lzma2
SolidCompression=yes
UninstallDisplayName=Relay
ArchitecturesInstallIn64BitMode=x64compatible

[Files]
Source: "..\..\dist\relay\*"; DestDir: "{app}"; Excludes: "install.sh,uninstall.sh"; Flags: recursesubdirs ignoreversion
Source: "{#HostName}.chromium.json"; DestDir: "{app}"; Flags: ignoreversion
Source: "{#HostName}.firefox.json"; DestDir: "{app}"; Flags: ignoreversion
; Tells `relay uninstall --program` that this installer owns the folder (remove Relay with it).
Source: "installed-by"; DestDir: "{app}"; Flags: ignoreversion

[Registry]
; The default value of each key is the manifest's path: that is where the browser looks.
Root: HKCU; Subkey: "Software\Google\Chrome\NativeMessagingHosts\{#HostName}"; ValueType: string; ValueName: ""; ValueData: "{app}\{#HostName}.chromium.json"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Chromium\NativeMessagingHosts\{#HostName}"; ValueType: string; ValueName: ""; ValueData: "{app}\{#HostName}.chromium.json"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Microsoft\Edge\NativeMessagingHosts\{#HostName}"; ValueType: string; ValueName: ""; ValueData: "{app}\{#HostName}.chromium.json"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\{#HostName}"; ValueType: string; ValueName: ""; ValueData: "{app}\{#HostName}.chromium.json"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Vivaldi\NativeMessagingHosts\{#HostName}"; ValueType: string; ValueName: ""; ValueData: "{app}\{#HostName}.chromium.json"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Mozilla\NativeMessagingHosts\{#HostName}"; ValueType: string; ValueName: ""; ValueData: "{app}\{#HostName}.firefox.json"; Flags: uninsdeletekey
; Put relay on this user's PATH.
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; Check: NeedsAddPath(ExpandConstant('{app}'))

[UninstallRun]
; Registrations the person added later with `relay install` (say, a Chromium profile folder).
Filename: "{app}\relay.exe"; Parameters: "uninstall"; Flags: runhidden; RunOnceId: "RelayUnregister"

[Code]
function NeedsAddPath(Dir: string): Boolean;
var
  Current: string;
begin
  if not RegQueryStringValue(HKEY_CURRENT_USER, 'Environment', 'Path', Current) then
  begin
    Result := True;
    exit;
  end;
  Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Current) + ';') = 0;
end;
