using System.Diagnostics;
using System.Text;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Limits;

namespace RpcCompare.Perf.Hosting;

/// <summary>
/// Starts RpcCompare.Host as a separate process (the tools measure across a process
/// boundary), waits for its endpoints file, and stops it with SIGTERM so it cleans up after itself.
/// </summary>
public sealed class HostLauncher : IAsyncDisposable
{
    // The host's configuration key of each TCP binding's port (hosts/RpcCompare.Host, --help).
    private static readonly (string Binding, string Key)[] s_portKeys =
        [(BindingNames.WcfNetTcp, "WcfNetTcp:Port"), (BindingNames.WcfHttp, "WcfHttp:Port"), (BindingNames.GrpcTcp, "GrpcTcp:Port"), (BindingNames.FastTcp, "FastTcp:Port")];

    private readonly string _directory;
    private readonly StringBuilder _output = new();

    private readonly IReadOnlyList<string> _bindings;
    private readonly IReadOnlyDictionary<string, string> _environment;
    private readonly IReadOnlyList<string> _arguments;
    private readonly CpuPlacement _placement;
    private Process _process;

    private HostLauncher(string directory, IReadOnlyList<string> bindings, CpuPlacement placement, IReadOnlyDictionary<string, string> environment, IReadOnlyList<string> arguments)
    {
        _directory = directory;
        _arguments = arguments;
        _bindings = bindings;
        _placement = placement;
        _environment = environment;
        _process = null!; // Set by LaunchAsync before the launcher is handed out.
        Endpoints = new Dictionary<string, string>();
    }

    public IReadOnlyDictionary<string, string> Endpoints { get; private set; }

    /// <summary>The host's process id, for reading its runtime's events.</summary>
    public int ProcessId => _process.Id;

    /// <summary>
    /// The directory the host's file operations are confined to. The launcher owns it (not the
    /// host), so it outlives a killed host, a restarted one finds the same files, and a test can
    /// read what was written.
    /// </summary>
    public string DataRoot => Path.Combine(_directory, "data");

    /// <param name="bindings">Network bindings to serve.</param>
    /// <param name="placement">Where --pin puts the host (<see cref="CpuPinning.HostCpu"/>); the runner pins itself.</param>
    /// <param name="environment">Extra environment for the host (runtime knobs under test).</param>
    /// <param name="arguments">Extra host switches (e.g. --contracts PATH), kept for a restart.</param>
    public static async Task<HostLauncher> StartAsync(IReadOnlyList<string> bindings, CpuPlacement placement, IReadOnlyDictionary<string, string>? environment = null, IReadOnlyList<string>? arguments = null)
    {
        var directory = Directory.CreateTempSubdirectory("rpccompare-runner-").FullName;
        var launcher = new HostLauncher(directory, bindings, placement, environment ?? new Dictionary<string, string>(), arguments ?? []);
        try
        {
            await launcher.LaunchAsync([]);
            return launcher;
        }
        catch
        {
            await launcher.DisposeAsync();
            throw;
        }
    }

    /// <summary>Kills the host at once (SIGKILL: no shutdown, no clean-up), as a crash or an OOM kill would, and waits until it is gone.</summary>
    public async Task KillAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }
    }

    /// <summary>
    /// Starts the host again after <see cref="KillAsync"/>, on the same addresses (TCP ports, socket
    /// files) and data root, so clients reconnect to what they knew; returns when it serves again.
    /// </summary>
    public async Task RestartAsync()
    {
        if (!_process.HasExited)
        {
            throw new InvalidOperationException("The host is still running: kill it first.");
        }

        _process.Dispose();
        List<string> ports = [];
        foreach (var (binding, key) in s_portKeys)
        {
            if (Endpoints.TryGetValue(binding, out var address) && Uri.TryCreate(address, UriKind.Absolute, out var uri))
            {
                ports.Add($"--{key}");
                ports.Add(uri.Port.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        await LaunchAsync(ports);
    }

    private async Task LaunchAsync(IReadOnlyList<string> extraArguments)
    {
        var endpointsPath = Path.Combine(_directory, "endpoints.json");
        File.Delete(endpointsPath); // A killed host leaves its file behind.
        // Pinned hosts start under taskset (which execs dotnet in the same process): taskset -a on a running
        // runtime could miss a thread being created while it walks them.
        IReadOnlyList<string> command = _placement == CpuPlacement.None ? ["dotnet"] : [.. CpuPinning.StartOn(CpuPinning.HostCpu(_placement)), "dotnet"];
        var start = new ProcessStartInfo(command[0])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in command.Skip(1))
        {
            start.ArgumentList.Add(argument);
        }

        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "RpcCompare.Host.dll"));
        start.ArgumentList.Add("--bindings");
        start.ArgumentList.Add(string.Join(',', _bindings));
        start.ArgumentList.Add("--endpoints-file");
        start.ArgumentList.Add(endpointsPath);
        start.ArgumentList.Add("--socket-dir");
        start.ArgumentList.Add(Path.Combine(_directory, "sockets"));
        start.ArgumentList.Add("--data-root");
        start.ArgumentList.Add(DataRoot);
        // A host shares the open-file budget among its bindings (3,000 each of 20,000 files); the
        // tools drive one binding at a time, the push suite to thousands of subscribers, so each
        // may use the whole budget here. Arguments given to StartAsync come later and win.
        if (OpenFileLimit.DefaultMaxConnections(OpenFileLimit.ReadSoftLimit()) is var budget and < int.MaxValue)
        {
            start.ArgumentList.Add("--max-connections");
            start.ArgumentList.Add(budget.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        foreach (var argument in _arguments.Concat(extraArguments))
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["Logging__LogLevel__Default"] = "Warning";
        foreach (var (name, value) in _environment)
        {
            start.Environment[name] = value;
        }

        Process process;
        try
        {
            process = Process.Start(start) ?? throw new InvalidOperationException("Could not start RpcCompare.Host.");
        }
        catch (System.ComponentModel.Win32Exception e) when (command[0] == "taskset")
        {
            throw new InvalidOperationException($"--pin starts the host with taskset(1) (util-linux), which could not be run: {e.Message}", e);
        }

        _process = process;
        process.OutputDataReceived += (_, e) => Append(e.Data);
        process.ErrorDataReceived += (_, e) => Append(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        using var exited = new CancellationTokenSource();
        var waitForExit = process.WaitForExitAsync(exited.Token);
        var waitForEndpoints = EndpointsFile.WaitAsync(endpointsPath, TimeSpan.FromSeconds(60), exited.Token);
        if (await Task.WhenAny(waitForEndpoints, waitForExit) == waitForExit)
        {
            throw new InvalidOperationException($"RpcCompare.Host exited with code {process.ExitCode} before it was ready:\n{Output}");
        }

        await exited.CancelAsync();
        Endpoints = (await waitForEndpoints).Addresses;
    }

    /// <summary>
    /// Null while the host runs; once it has exited, its exit code and last output lines, which
    /// usually say why (a client only sees its connection close).
    /// </summary>
    public string? ExitReport(int lastLines = 20)
    {
        if (!_process.HasExited)
        {
            return null;
        }

        var lines = Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        return $"RpcCompare.Host (process {_process.Id}) exited with code {_process.ExitCode}; its last output:\n" + string.Join('\n', lines.TakeLast(lastLines));
    }

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_process is { HasExited: false })
        {
            ChildProcess.Terminate(_process.Id);

            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(15));
            try
            {
                await _process.WaitForExitAsync(timeout.Token);
            }
            catch (OperationCanceledException)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        _process?.Dispose();
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private void Append(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.AppendLine(line);
            }
        }
    }
}
