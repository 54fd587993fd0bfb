using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Service.Tests;

/// <summary>What every operation does with a missing request, and how the service is registered.</summary>
public sealed class ServiceArgumentTests
{
    public static TheoryData<string> Operations() =>
    [
        "ReadDirectory", "WriteAt", "TakeInt", "Increment", "TakePoint", "EchoBytes", "SendBytes", "SendRecords", "SendString",
    ];

    [Theory]
    [MemberData(nameof(Operations))]
    public async Task NullRequest_IsRefusedAsInvalidArgument_NamingTheOperationAndWhatItNeeds(string operation)
    {
        using var root = DataRoot.Open(new DataRootOptions { Seed = false });
        var files = new FileService(root);
        var shapes = new CallShapeService();
        var payloads = new PayloadService();
        Func<Task> call = operation switch
        {
            "ReadDirectory" => () => files.ReadDirectoryAsync(null!),
            "WriteAt" => () => files.WriteAtAsync(null!),
            "TakeInt" => () => shapes.TakeIntAsync(null!),
            "Increment" => () => shapes.IncrementAsync(null!),
            "TakePoint" => () => shapes.TakePointAsync(null!),
            "EchoBytes" => () => payloads.EchoBytesAsync(null!),
            "SendBytes" => () => payloads.SendBytesAsync(null!),
            "SendRecords" => () => payloads.SendRecordsAsync(null!),
            _ => () => payloads.SendStringAsync(null!),
        };

        var error = await Assert.ThrowsAsync<RpcServiceException>(call);

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
        Assert.Matches($"^{operation} got no request; it needs a [A-Za-z]+(Request|Message)\\.$", error.Message);
    }

    [Fact]
    public void ARequestMissingFromAnOperationNotNamedAsync_NamesItAsItIs()
    {
        var error = Assert.Throws<RpcServiceException>(() => Service.Internal.Requests.Require<PingRequest>(null, "Ping"));

        Assert.Equal((RpcErrorCode.InvalidArgument, "Ping got no request; it needs a PingRequest."), (error.Code, error.Message));
        var given = new PingRequest();
        Assert.Same(given, Service.Internal.Requests.Require(given, "Ping"));
    }

    [Fact]
    public async Task Payloads_WithNothingInThem_AreEmpty()
    {
        var service = new PayloadService();

        Assert.Equal(Array.Empty<byte>(), (await service.EchoBytesAsync(new BytesMessage { Data = null! })).Data);
        Assert.Equal(0, (await service.SendBytesAsync(new BytesMessage())).Length);
        Assert.Equal(0, (await service.SendRecordsAsync(new RecordsMessage { Records = null! })).Length);
        Assert.Equal(0, (await service.SendStringAsync(new StringMessage())).Length);
    }

    [Fact]
    public void DataRoot_OpenWithoutOptions_IsArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => DataRoot.Open(null!));
    }

    [Fact]
    public void DataRoot_Temporary_IsNamedForTheProduct()
    {
        using var root = DataRoot.Open(new DataRootOptions { Seed = false });

        Assert.StartsWith("rpccompare-data-", Path.GetFileName(root.FullPath), StringComparison.Ordinal);
    }

    [Fact]
    public void DataRoot_ConfiguredButMissing_IsCreatedAndKept()
    {
        using var parent = new TemporaryDirectory();
        var path = parent.PathFor("new/root");

        using (DataRoot.Open(new DataRootOptions { Path = path, Seed = false }))
        {
            Assert.True(Directory.Exists(path));
        }

        Assert.True(Directory.Exists(path));
    }

    [Fact]
    public void DataRoot_Seed_WritesTheExactSizeOfTheRepeatingPattern()
    {
        // 70,000 bytes: one whole 64 KiB block and a part of the next.
        using var root = DataRoot.Open(new DataRootOptions { SeedFileSize = 70_000, SeedDirectoryEntries = 0 });

        var content = File.ReadAllBytes(Path.Combine(root.FullPath, DataRoot.DefaultFileName));

        Assert.Equal(70_000, content.Length);
        Assert.Equal(Enumerable.Range(0, 70_000).Select(i => (byte)(i % 65_536 * 31)), content);
    }

    [Fact]
    public void AddDataRoot_BindsTheConfigurationSection_ThenTheCallersSettings()
    {
        using var directory = new TemporaryDirectory();
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["DataRoot:Path"] = directory.FullPath,
            ["DataRoot:SeedDirectoryEntries"] = "4",
        }).Build();
        using var services = new ServiceCollection()
            .AddDataRoot(configuration, options => options.SeedFileSize = 10)
            .BuildServiceProvider();

        var root = services.GetRequiredService<DataRoot>();

        Assert.Equal(directory.FullPath, root.FullPath);
        Assert.Equal(10, new FileInfo(directory.PathFor(DataRoot.DefaultFileName)).Length);
        Assert.Equal(4, Directory.EnumerateFileSystemEntries(directory.PathFor(DataRoot.DefaultDirectoryName)).Count());
    }

    [Fact]
    public void AddDataRoot_WithNothingGiven_OpensATemporaryRoot()
    {
        using var services = new ServiceCollection().AddDataRoot().BuildServiceProvider();

        var root = services.GetRequiredService<DataRoot>();

        Assert.Equal(1024 * 1024, new FileInfo(Path.Combine(root.FullPath, DataRoot.DefaultFileName)).Length);
    }

    [Fact]
    public void AddDataRoot_WithoutServices_IsArgumentNullException()
    {
        Assert.Throws<ArgumentNullException>(() => DataRootServiceCollectionExtensions.AddDataRoot(null!));
    }

    [Fact]
    public void AddRpcCompareServices_RegistersTheDataRootAndTheFourContracts()
    {
        using var directory = new TemporaryDirectory();
        using var services = new ServiceCollection()
            .AddRpcCompareServices(configure: options => options.Path = directory.FullPath)
            .BuildServiceProvider();

        Assert.Equal(directory.FullPath, services.GetRequiredService<DataRoot>().FullPath);
        Assert.Equal(
            [(typeof(IFileService), typeof(FileService)), (typeof(ICallShapeService), typeof(CallShapeService)), (typeof(IPayloadService), typeof(PayloadService)), (typeof(IFileTransferService), typeof(FileTransferService))],
            services.GetServices<RpcServiceDescriptor>().Select(d => (d.Contract, d.Implementation)));
    }
}
