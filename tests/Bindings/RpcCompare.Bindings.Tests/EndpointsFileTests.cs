using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests;

public sealed class EndpointsFileTests : IDisposable
{
    private static readonly HostEndpoints s_endpoints = new(new Dictionary<string, string>
    {
        ["grpc-tcp"] = "http://127.0.0.1:5001",
        ["pipes"] = "/tmp/rpccompare/pipes.sock",
    });

    private readonly TemporaryDirectory _directory = new();

    private string Path => _directory.PathFor("endpoints.json");

    [Fact]
    public async Task WhatIsWritten_IsReadBack_AsIndentedJsonAPersonCanRead()
    {
        await EndpointsFile.WriteAsync(Path, s_endpoints);

        Assert.Equal(s_endpoints.Addresses, EndpointsFile.Read(Path).Addresses);
        Assert.Contains("\n  \"pipes\": ", await File.ReadAllTextAsync(Path), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Writing_ReplacesAnOlderFile_AndLeavesNoTemporaryFileBehind()
    {
        await File.WriteAllTextAsync(Path, """{ "wcf-http": "http://127.0.0.1:1" }""");

        await EndpointsFile.WriteAsync(Path, s_endpoints);

        Assert.Equal(s_endpoints.Addresses, EndpointsFile.Read(Path).Addresses);
        Assert.Equal(["endpoints.json"], Directory.GetFiles(_directory.FullPath).Select(System.IO.Path.GetFileName));
    }

    [Fact]
    public async Task ACertificateThumbprint_IsWrittenBesideTheBindings_AndReadBackApartFromThem()
    {
        var thumbprint = new string('A', 64);

        await EndpointsFile.WriteAsync(Path, s_endpoints with { CertificateThumbprint = thumbprint });

        var read = EndpointsFile.Read(Path);
        Assert.Equal(s_endpoints.Addresses, read.Addresses);
        Assert.Equal(thumbprint, read.CertificateThumbprint);
        Assert.Equal(thumbprint, read.ClientTls?.ServerCertificateThumbprint);
        Assert.Contains($"\"{EndpointsFile.CertificateKey}\": \"{thumbprint}\"", await File.ReadAllTextAsync(Path), StringComparison.Ordinal);
    }

    [Fact]
    public async Task APlaintextHost_HasNoThumbprint_AndClientsNoTls()
    {
        await EndpointsFile.WriteAsync(Path, s_endpoints);

        var read = EndpointsFile.Read(Path);
        Assert.Null(read.CertificateThumbprint);
        Assert.Null(read.ClientTls);
        Assert.DoesNotContain(EndpointsFile.CertificateKey, await File.ReadAllTextAsync(Path), StringComparison.Ordinal);
    }

    [Fact]
    public async Task AFileHoldingNoObject_IsRefused_NamingIt()
    {
        await File.WriteAllTextAsync(Path, "null");

        var error = Assert.Throws<InvalidDataException>(() => EndpointsFile.Read(Path));

        Assert.Equal($"Endpoints file '{Path}' does not hold a JSON object.", error.Message);
    }

    [Fact]
    public async Task Wait_ReturnsTheEndpoints_OnceTheFileAppears()
    {
        var waiting = EndpointsFile.WaitAsync(Path, TestTimeout.Default);
        await Task.Delay(200);
        Assert.False(waiting.IsCompleted);

        await EndpointsFile.WriteAsync(Path, s_endpoints);

        Assert.Equal(s_endpoints.Addresses, (await waiting.Bounded()).Addresses);
    }

    [Fact]
    public async Task Wait_GivesUpAfterTheTimeout_SayingWhereItLooked()
    {
        var error = await Assert.ThrowsAsync<TimeoutException>(() => EndpointsFile.WaitAsync(Path, TimeSpan.FromMilliseconds(300)).Bounded());

        Assert.Equal($"No endpoints file appeared at '{Path}' within 0.3 s.", error.Message);
    }

    [Fact]
    public async Task Wait_CancelledByTheCaller_IsACancellation_NotATimeout()
    {
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => EndpointsFile.WaitAsync(Path, TestTimeout.Default, cancel.Token).Bounded());
    }

    public void Dispose() => _directory.Dispose();
}
