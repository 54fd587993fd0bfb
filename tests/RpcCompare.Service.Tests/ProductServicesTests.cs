using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Service.Tests;

public sealed class ProductServicesTests
{
    private static readonly string[] Every = ["FileService", "CallShapeService", "PayloadService", "FileTransferService"];

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("all")]
    [InlineData("ALL")]
    [InlineData("FileService, all")]
    [InlineData(" , ")]
    public void AllOrNothingGiven_IsEveryService(string? list)
    {
        Assert.Equal(Every, ProductServices.Parse(list));
    }

    [Fact]
    public void AList_IsThoseServices_InTheProductsOrder_WhateverTheCase()
    {
        Assert.Equal(["FileService", "PayloadService"], ProductServices.Parse(" payloadservice ,FILESERVICE"));
    }

    [Theory]
    [InlineData("none")]
    [InlineData(" None ")]
    public void None_IsNoService_ForAHostOfATeamsContractsOnly(string list)
    {
        Assert.Empty(ProductServices.Parse(list));
    }

    [Fact]
    public void None_BesideAName_IsRefused()
    {
        var error = Assert.Throws<ArgumentException>(() => ProductServices.Parse("none,FileService"));

        Assert.StartsWith("Unknown service 'none';", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnUnknownName_IsRefusedNamingItAndTheServices()
    {
        var error = Assert.Throws<ArgumentException>(() => ProductServices.Parse("FileService,Files"));

        Assert.StartsWith("Unknown service 'Files'; the services are FileService, CallShapeService, PayloadService, FileTransferService (or all, or none).", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void EveryServiceMapsItsContractToItsImplementation()
    {
        Assert.Equal(
            [(typeof(IFileService), typeof(FileService)), (typeof(ICallShapeService), typeof(CallShapeService)), (typeof(IPayloadService), typeof(PayloadService)), (typeof(IFileTransferService), typeof(FileTransferService))],
            Every.Select(n => ProductServices.All[n]));
    }

    [Fact]
    public void AddRpcCompareServices_Only_RegistersJustThose()
    {
        using var directory = new TemporaryDirectory();
        using var services = new ServiceCollection()
            .AddRpcCompareServices(configure: options => options.Path = directory.FullPath, only: ["PayloadService", "FileTransferService"])
            .BuildServiceProvider();

        Assert.Equal([typeof(IPayloadService), typeof(IFileTransferService)], services.GetServices<RpcServiceDescriptor>().Select(d => d.Contract));
        Assert.IsType<FileTransferService>(services.GetRequiredService<IFileTransferService>());
    }
}
