using System.Diagnostics;
using System.Text;
using RpcCompare.Bindings;

namespace RpcCompare.Perf.Hosting;

/// <summary>
/// Starts RpcCompare.Host as a separate process (the tools measure across a process
/// boundary), waits for its endpoints file, and stops it with SIGTERM so it cleans up after itself.
/// </summary>
public sealed class HostLauncher : IAsyncDisposable
{
    private readonly Process _process;
    private readonly string _directory;
    private readonly StringBuilder _output = new();

    private HostLauncher(Process process, string directory, IReadOnlyDictionary<string, string> endpoints)
    {
        _process = process;
        _directory = directory;
        Endpoints = endpoints;
    }

    public IReadOnlyDictionary<string, string> Endpoints { get; private set; }

    /// <summary>The host's process id, for reading its runtime's events.</summary>
    public int ProcessId => _process.Id;

    /// <param name="bindings">Network bindings to serve.</param>
    /// <param name="pinToCpu0">Pins the host to CPU 0, as the runner pins itself.</param>
    /// <param name="environment">Extra environment for the host (runtime knobs under test).</param>
    public static async Task<HostLauncher> StartAsync(IReadOnlyList<string> bindings, bool pinToCpu0, IReadOnlyDictionary<string, string>? environment = null)
    {
        var directory = Directory.CreateTempSubdirectory("rpccompare-runner-").FullName;
        var endpointsPath = Path.Combine(directory, "endpoints.json");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "RpcCompare.Host.dll"));
        start.ArgumentList.Add("--bindings");
        start.ArgumentList.Add(string.Join(',', bindings));
        start.ArgumentList.Add("--endpoints-file");
        start.ArgumentList.Add(endpointsPath);
        start.ArgumentList.Add("--socket-dir");
        start.ArgumentList.Add(Path.Combine(directory, "sockets"));
        start.Environment["Logging__LogLevel__Default"] = "Warning";
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        Process process;
        try
        {
            process = Process.Start(start) ?? throw new InvalidOperationException("Could not start RpcCompare.Host.");
        }
        catch
        {
            Directory.Delete(directory, recursive: true);
            throw;
        }

        // From here the launcher owns the process and the directory: any failure disposes it.
        var launcher = new HostLauncher(process, directory, new Dictionary<string, string>());
        process.OutputDataReceived += (_, e) => launcher.Append(e.Data);
        process.ErrorDataReceived += (_, e) => launcher.Append(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            if (pinToCpu0)
            {
                CpuPinning.PinToCpu0(process.Id);
            }

            using var exited = new CancellationTokenSource();
            var waitForExit = process.WaitForExitAsync(exited.Token);
            var waitForEndpoints = EndpointsFile.WaitAsync(endpointsPath, TimeSpan.FromSeconds(60), exited.Token);
            if (await Task.WhenAny(waitForEndpoints, waitForExit) == waitForExit)
            {
                throw new InvalidOperationException($"RpcCompare.Host exited with code {process.ExitCode} before it was ready:\n{launcher.Output}");
            }

            await exited.CancelAsync();
            launcher.Endpoints = await waitForEndpoints;
            return launcher;
        }
        catch
        {
            await launcher.DisposeAsync();
            throw;
        }
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
        if (!_process.HasExited)
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

        _process.Dispose();
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
