using System.Diagnostics;
using System.Text;
using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>The host started as its own process from the test's output folder; killed on dispose if still running.</summary>
internal sealed class HostProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();

    private HostProcess(Process process)
    {
        _process = process;
        _process.OutputDataReceived += (_, e) => Append(e.Data);
        _process.ErrorDataReceived += (_, e) => Append(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
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

    public int Id => _process.Id;

    public static HostProcess Start(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "RpcCompare.Host.dll"));
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return new HostProcess(Process.Start(start)!);
    }

    public async Task<IReadOnlyDictionary<string, string>> WaitForEndpointsAsync(string path)
    {
        try
        {
            return (await EndpointsFile.WaitAsync(path, TestTimeout.Default)).Addresses;
        }
        catch (TimeoutException exception)
        {
            throw new TimeoutException($"{exception.Message} Host output:\n{Output}", exception);
        }
    }

    /// <summary>
    /// Waits until the host has printed <paramref name="text"/>. The console logger writes from its own queue,
    /// so a line logged before the endpoints file was written can still reach the pipe after it.
    /// </summary>
    public async Task WaitForOutputAsync(string text)
    {
        var deadline = DateTime.UtcNow + TestTimeout.Default;
        while (!Output.Contains(text, StringComparison.Ordinal))
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"The host did not print '{text}' within {TestTimeout.Default}. Host output:\n{Output}");
            }

            await Task.Delay(20);
        }
    }

    /// <summary>Sends SIGTERM, as a container runtime or service manager would.</summary>
    public async Task<int> TerminateAsync()
    {
        await TestProcess.TerminateAsync(_process.Id);

        return await WaitForExitAsync();
    }

    /// <summary>kill -9: the host gets no chance to shut down, as when its machine or container dies.</summary>
    public async Task KillAsync()
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync().Bounded();
    }

    public async Task<int> WaitForExitAsync()
    {
        await _process.WaitForExitAsync().Bounded();
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private void Append(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
        }
    }
}
